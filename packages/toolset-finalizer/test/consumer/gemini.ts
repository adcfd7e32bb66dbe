// A consumer of Google's Gemini SDK, typechecked by the workspace typecheck (options checked by test/consumer.test.ts)
// and run by test/provider-sdks.test.ts.
import type { Content, FunctionDeclaration, GenerateContentResponse, GoogleGenAI, Part, Tool } from '@google/genai';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a consumer imports the package by its name, as a user's project does
import { runGeminiFunctionCalls, type FinalizedToolset } from '@openwork/toolset-finalizer';

export async function geminiTurn(client: GoogleGenAI, toolset: FinalizedToolset): Promise<GenerateContentResponse> {
  const functionDeclarations: FunctionDeclaration[] = toolset.geminiDefinitions();
  const tools: Tool[] = [{ functionDeclarations }];
  return client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Read README.md', config: { tools } });
}

/** One round of the loop: the model's function calls run, their responses go back in a user turn. */
export async function geminiLoopTurn(client: GoogleGenAI, toolset: FinalizedToolset, contents: Content[]): Promise<GenerateContentResponse> {
  const config = { tools: [{ functionDeclarations: toolset.geminiDefinitions() }] };
  const response = await client.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
  const content = response.candidates?.[0]?.content;
  if (content !== undefined) contents.push(content);
  const parts: Part[] = await runGeminiFunctionCalls(toolset, response.functionCalls);
  contents.push({ role: 'user', parts });
  return client.models.generateContent({ model: 'gemini-2.5-flash', contents, config });
}

export async function notCalls(toolset: FinalizedToolset): Promise<void> {
  // @ts-expect-error function calls are objects with a name and args, not names
  await runGeminiFunctionCalls(toolset, ['read']);
}

export function notTools(toolset: FinalizedToolset): Tool[] {
  // @ts-expect-error declarations go inside a tool's functionDeclarations
  return toolset.geminiDefinitions();
}
