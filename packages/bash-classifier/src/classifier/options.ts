/**
 * A closed description of a program's flags: a flag not named here makes
 * the command ask (docs/design.md §8: the table's correctness is the boundary).
 */
export interface OptionSpec {
  /** Short flags without a value; they may be bundled (`-la`). */
  readonly short?: string;
  /** Short flags with a value, attached (`-n5`) or as the next word. */
  readonly shortValue?: string;
  /** Short flags whose value may only be attached (`-I` or `-Iseconds`). */
  readonly shortOptional?: string;
  /** Long flags without a value. */
  readonly long?: readonly string[];
  /** Long flags with a value, as `--name=value` or the next word. */
  readonly longValue?: readonly string[];
  /** Long flags whose value may only be attached with `=`. */
  readonly longOptional?: readonly string[];
  /** Long flags that take the next two words (`jq --arg name value`). */
  readonly longTwoValues?: readonly string[];
  /** Accept `-5` as a number flag (head, tail, grep context). */
  readonly numeric?: boolean;
  /** Flags that are known and never safe, each with its reason: `-o`, `--output`. */
  readonly denied?: Readonly<Record<string, string>>;
}

export interface ParsedOption {
  /** `-x` or `--name`. */
  readonly name: string;
  readonly value?: string;
  /** Where the value stands in `args` (the flag's own word when attached). */
  readonly valueIndex?: number;
}

export type OptionScan =
  | {
      readonly ok: true;
      readonly options: readonly ParsedOption[];
      readonly operands: readonly string[];
      /** Where each operand stands in `args`. */
      readonly operandIndexes: readonly number[];
    }
  | { readonly ok: false; readonly reason: string };

/** Reads flags the way GNU getopt does (bundles, `--`, `=`, permutation), but only the named ones. */
export function scanOptions(program: string, args: readonly string[], spec: OptionSpec): OptionScan {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const operandIndexes: number[] = [];
  const denied = spec.denied ?? {};
  const refuse = (name: string): OptionScan => ({
    ok: false,
    reason: denied[name] ?? `${program} ${name} is not a known-safe flag`,
  });
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (arg === '--') {
      for (let rest = index + 1; rest < args.length; rest += 1) {
        operands.push(args[rest] ?? '');
        operandIndexes.push(rest);
      }
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg);
      operandIndexes.push(index);
      continue;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = equals === -1 ? arg : arg.slice(0, equals);
      const bare = name.slice(2);
      if (name in denied) return refuse(name);
      if (spec.long?.includes(bare) === true) {
        if (equals !== -1) return { ok: false, reason: `${program} ${name} takes no value` };
        options.push({ name });
      } else if (spec.longOptional?.includes(bare) === true) {
        options.push(equals === -1 ? { name } : { name, value: arg.slice(equals + 1), valueIndex: index });
      } else if (spec.longValue?.includes(bare) === true) {
        if (equals !== -1) options.push({ name, value: arg.slice(equals + 1), valueIndex: index });
        else {
          const value = args[index + 1];
          if (value === undefined) return { ok: false, reason: `${program} ${name} expects a value` };
          options.push({ name, value, valueIndex: index + 1 });
          index += 1;
        }
      } else if (spec.longTwoValues?.includes(bare) === true && equals === -1) {
        if (index + 2 >= args.length) return { ok: false, reason: `${program} ${name} expects two values` };
        // The value is the second word (`--rawfile name FILE`); the first names a variable.
        options.push({ name, value: args[index + 2] ?? '', valueIndex: index + 2 });
        index += 2;
      } else {
        return refuse(name);
      }
      continue;
    }
    if (spec.numeric === true && /^-\d+$/.test(arg)) {
      options.push({ name: arg });
      continue;
    }
    for (let position = 1; position < arg.length; position += 1) {
      const flag = arg[position] ?? '';
      const name = `-${flag}`;
      if (name in denied) return refuse(name);
      if (spec.short?.includes(flag) === true) {
        options.push({ name });
      } else if (spec.shortOptional?.includes(flag) === true) {
        options.push({ name, value: arg.slice(position + 1), valueIndex: index });
        break;
      } else if (spec.shortValue?.includes(flag) === true) {
        const attached = arg.slice(position + 1);
        if (attached !== '') options.push({ name, value: attached, valueIndex: index });
        else {
          const value = args[index + 1];
          if (value === undefined) return { ok: false, reason: `${program} ${name} expects a value` };
          options.push({ name, value, valueIndex: index + 1 });
          index += 1;
        }
        break;
      } else {
        return refuse(name);
      }
    }
  }
  return { ok: true, options, operands, operandIndexes };
}
