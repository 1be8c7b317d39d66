// One chat completion through the official OpenAI Node SDK with its default retries (maxRetries 2,
// its default timeout), as an application would call solwebd. The key is read from the daemon's
// token file, never from argv or the environment.
//   node chat.mjs BASE_URL TOKEN_FILE MODEL PROMPT [--stream] [--timeout-ms N]
// Prints one JSON line: {"ok": true, "content": ...} or {"ok": false, "status": ..., "error": ...}.
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';

const [baseURL, tokenFile, model, prompt, ...rest] = process.argv.slice(2);
if (!prompt) {
  console.error('usage: node chat.mjs BASE_URL TOKEN_FILE MODEL PROMPT [--stream] [--timeout-ms N]');
  process.exit(2);
}
const stream = rest.includes('--stream');
const at = rest.indexOf('--timeout-ms');
const options = { baseURL, apiKey: readFileSync(tokenFile, 'utf8').trim() };
if (at >= 0) options.timeout = Number(rest[at + 1]);
const client = new OpenAI(options);
try {
  let content = '';
  if (stream) {
    const chunks = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: prompt }] });
    for await (const chunk of chunks) content += chunk.choices[0]?.delta?.content ?? '';
  } else {
    const done = await client.chat.completions.create({ model, messages: [{ role: 'user', content: prompt }] });
    content = done.choices[0].message.content;
  }
  console.log(JSON.stringify({ ok: true, content }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, status: e.status ?? null, error: String(e.message ?? e) }));
  process.exitCode = 1;
}
