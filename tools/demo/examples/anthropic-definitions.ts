// The definitions a model gets, in the Anthropic Messages shape (`tools` of
// a request) and the OpenAI chat-completions shape. Both come from the one
// finalized toolset that also runs the calls.
import { openSampleSession } from './sample-session.ts';

const sample = await openSampleSession();
try {
  console.log('Anthropic Messages `tools`:');
  console.log(JSON.stringify(sample.toolset.anthropicDefinitions(), null, 2));
  console.log('\nOpenAI chat-completions `tools`:');
  console.log(JSON.stringify(sample.toolset.openAiDefinitions(), null, 2));
} finally {
  await sample.close();
}
