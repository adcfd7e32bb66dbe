// What an AI SDK tool returns, and how it reaches the model: the text alone
// as a `text` output, the text and its images as a `content` output whose
// image parts take the form of the `ai` major installed (docs/decisions/0021,
// docs/contract.md §3.6).
import type { ImagePart } from '@openwork/tool-contract';
import { modelMessageSchema } from 'ai';

/** An ok result with images: its model text and the images, in order. */
export interface AiSdkImageOutput {
  readonly text: string;
  readonly images: readonly ImagePart[];
}

/** What an AI SDK tool's `execute` resolves to: the model text, or the text with its images. */
export type AiSdkToolOutput = string | AiSdkImageOutput;

/** The output a tool result is sent to the model as; each major reads the parts it knows. */
type ModelOutput =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'content'; readonly value: readonly ModelOutputPart[] };

type ModelOutputPart =
  | { readonly type: 'text'; readonly text: string }
  // ai 5 (and 6, deprecated there).
  | { readonly type: 'media'; readonly data: string; readonly mediaType: string }
  // ai 6 (and 7, deprecated there).
  | { readonly type: 'image-data'; readonly data: string; readonly mediaType: string }
  // ai 7.
  | { readonly type: 'file'; readonly data: { readonly type: 'data'; readonly data: string }; readonly mediaType: string };

type ImageForm = ModelOutputPart['type'] & ('media' | 'image-data' | 'file');

/** A tool message whose one result holds one image part of the given form. */
function probe(part: ModelOutputPart): unknown {
  const output = { type: 'content', value: [part] };
  return { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'probe', toolName: 'probe', output }] };
}

let imageForm: ImageForm | undefined;

/**
 * The image part the installed `ai` takes without a deprecation warning,
 * asked of its own model-message schema once: `file` with `{type: 'data'}`
 * (ai 7), else `image-data` (ai 6), else `media` (ai 5).
 */
function installedImageForm(): ImageForm {
  if (imageForm !== undefined) return imageForm;
  const accepts = (part: ModelOutputPart) => modelMessageSchema.safeParse(probe(part)).success;
  const sample = { data: 'AA==', mediaType: 'image/png' };
  if (accepts({ type: 'file', data: { type: 'data', data: sample.data }, mediaType: sample.mediaType })) imageForm = 'file';
  else if (accepts({ type: 'image-data', ...sample })) imageForm = 'image-data';
  else imageForm = 'media';
  return imageForm;
}

function imagePart(image: ImagePart, form: ImageForm): ModelOutputPart {
  if (form === 'file') return { type: 'file', data: { type: 'data', data: image.data }, mediaType: image.mediaType };
  return { type: form, data: image.data, mediaType: image.mediaType };
}

/**
 * The tool's `toModelOutput`. ai 5 passes it the output; ai 6 and 7 pass
 * `{toolCallId, input, output}`. Error results never come here: the SDK
 * sends a thrown error as `error-text` itself.
 */
export function toModelOutput(argument: unknown): ModelOutput {
  const output = isCallOptions(argument) ? argument.output : argument;
  if (typeof output === 'string') return { type: 'text', value: output };
  if (!isImageOutput(output)) return { type: 'text', value: JSON.stringify(output) };
  const form = installedImageForm();
  return { type: 'content', value: [{ type: 'text', text: output.text }, ...output.images.map((image) => imagePart(image, form))] };
}

function isCallOptions(value: unknown): value is { readonly toolCallId: string; readonly output: unknown } {
  return typeof value === 'object' && value !== null && 'toolCallId' in value && 'output' in value;
}

function isImageOutput(value: unknown): value is AiSdkImageOutput {
  return typeof value === 'object' && value !== null && 'text' in value && typeof value.text === 'string' && 'images' in value && Array.isArray(value.images);
}
