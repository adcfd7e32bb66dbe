// A consumer of Google's Gemini SDK, typechecked by the workspace typecheck (options checked by test/consumer.test.ts)
// and run by test/provider-sdks.test.ts.
import type { FunctionDeclaration, GenerateContentResponse, GoogleGenAI, Tool } from '@google/genai';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a consumer imports the package by its name, as a user's project does
import type { FinalizedToolset } from '@openwork/toolset-finalizer';

export async function geminiTurn(client: GoogleGenAI, toolset: FinalizedToolset): Promise<GenerateContentResponse> {
  const functionDeclarations: FunctionDeclaration[] = toolset.geminiDefinitions();
  const tools: Tool[] = [{ functionDeclarations }];
  return client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Read README.md', config: { tools } });
}

export function notTools(toolset: FinalizedToolset): Tool[] {
  // @ts-expect-error declarations go inside a tool's functionDeclarations
  return toolset.geminiDefinitions();
}
