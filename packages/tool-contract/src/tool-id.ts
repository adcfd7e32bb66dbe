declare const toolIdBrand: unique symbol;

/** A stable internal identity such as `filesystem/read`; never derived from a file or type name. */
export type ToolId = string & { readonly [toolIdBrand]: true };

const TOOL_ID = /^[a-z][a-z0-9-]*\/[a-z][a-z0-9_-]*$/;

/** Makes a ToolId from a literal `group/name`; a malformed id is a programmer error. */
export function toolId(value: string): ToolId {
  if (!TOOL_ID.test(value)) throw new TypeError(`tool id must look like "group/name": ${JSON.stringify(value)}`);
  return value as ToolId;
}

/** How much a tool can change: the permission decision starts from it. */
export type ToolRisk = 'read' | 'write' | 'execute';

export const TOOL_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,63}$/;
