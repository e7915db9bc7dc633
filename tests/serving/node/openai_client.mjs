// The official OpenAI Node client against a running couplet server.
// Usage: node openai_client.mjs BASE_URL   (e.g. http://127.0.0.1:8000/v1)
// Exits non-zero with "FAIL ..." on the first thing that is not as expected.
import OpenAI from 'openai';

const baseURL = process.argv[2];
const client = new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0, timeout: 60_000 });
// Lines of n characters (the model may write couplet punctuation such as ， inside them).
const line = (n) => `[\\p{Script=Han}，、；？！]{${n}}`;
const couplet = (n) => new RegExp(`^上联：${line(n)}\\n下联：${line(n)}\\n横批：\\p{Script=Han}{4}$`, 'u');

function expect(condition, what) {
  if (!condition) {
    console.error(`FAIL ${what}`);
    process.exit(1);
  }
}

const models = await client.models.list();
const model = models.data[0].id;
expect(models.data.length === 1 && typeof model === 'string', 'models.list gives the loaded model');

const completion = await client.completions.create({ model, prompt: ['关于吉祥的七言春联', '五言春联 龙年'], n: 2, seed: 3 });
expect(completion.object === 'text_completion', `object is ${completion.object}`);
expect(completion.choices.length === 4, `4 choices, got ${completion.choices.length}`);
completion.choices.forEach((c, i) => {
  expect(c.index === i, `choice ${i} has index ${c.index}`);
  expect(couplet(i < 2 ? 7 : 5).test(c.text), `choice ${i} is a couplet: ${JSON.stringify(c.text)}`);
});
expect(completion.usage.completion_tokens > 0, 'usage counts tokens');

const chat = await client.chat.completions.create({ model, messages: [{ role: 'user', content: '藏头春福的五言春联' }] });
expect(couplet(5).test(chat.choices[0].message.content), `chat answer: ${chat.choices[0].message.content}`);

let streamed = '';
const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: '关于新春的七言春联' }], stream: true });
for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? '';
expect(couplet(7).test(streamed), `streamed chat: ${JSON.stringify(streamed)}`);

let text = '';
for await (const chunk of await client.completions.create({ model, prompt: '关于龙年的春联', stream: true }))
  text += chunk.choices[0]?.text ?? '';
expect(couplet(7).test(text), `streamed completion: ${JSON.stringify(text)}`);

try {
  await client.completions.create({ model, prompt: 'write a couplet' });
  expect(false, 'a prompt without Han characters was accepted');
} catch (e) {
  expect(e instanceof OpenAI.BadRequestError, `error class ${e.constructor.name}`);
  expect(e.status === 400 && e.param === 'prompt' && /Han/.test(e.message), `error ${e.status} ${e.param} ${e.message}`);
}
console.log(`OK: the openai Node client read completions, chat, both streams and a 400 from ${baseURL}`);
