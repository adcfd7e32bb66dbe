// A Gemini loop (@google/genai): the model turn's functionCalls in; out, the
// functionResponse parts of the next user content, each image of a result as
// inlineData among the response's own parts.
import { runGeminiFunctionCalls } from '@openwork/toolset-finalizer';
import { READS } from './fixture.mjs';

export default async function gemini({ toolset }) {
  const functionCalls = READS.map((read) => ({ id: read.id, name: 'read', args: read.input }));
  const parts = await runGeminiFunctionCalls(toolset, functionCalls);
  const userContent = { role: 'user', parts };
  const texts = [];
  const images = [];
  for (const part of userContent.parts) {
    const { response, parts: attached = [] } = part.functionResponse;
    if ('output' in response) texts.push(response.output);
    else texts.push(`error: ${response.error}`);
    for (const inline of attached) images.push({ mediaType: inline.inlineData.mimeType, data: inline.inlineData.data });
  }
  return { texts, images, functionResponseIds: userContent.parts.map((part) => part.functionResponse.id) };
}
