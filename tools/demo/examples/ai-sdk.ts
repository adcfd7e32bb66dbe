// The toolset as a Vercel AI SDK tool set. Pass `tools` to generateText or
// streamText with a model; here one tool's execute runs directly, as the SDK
// would run it, so the example needs no network and no API key.
import { aiSdkTools } from '@openwork/toolset-finalizer/ai-sdk';
import { acceptEditsPolicy, openSampleSession } from './sample-session.ts';

const sample = await openSampleSession();
try {
  const tools = aiSdkTools(sample.toolset, { authorize: acceptEditsPolicy(sample.session) });
  console.log(`AI SDK tools: ${Object.keys(tools).join(', ')}`);
  // e.g. await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: 'Make the greeting friendlier.' })
  const controller = new AbortController();
  const text = await tools.read?.execute({ path: 'src/greet.ts' }, { toolCallId: 'call-1', messages: [], context: {}, abortSignal: controller.signal });
  console.log('\nread src/greet.ts →');
  console.log(text);
} finally {
  await sample.close();
}
