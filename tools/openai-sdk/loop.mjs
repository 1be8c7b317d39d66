// A small tool-using agent on the official OpenAI Node SDK, as an application would write one:
// chat completions with four function tools (read, edit, bash, write) run in the working
// directory, the assistant message the SDK returned pushed back as is, until a final answer.
// bench-continuity runs it against solwebd. The key is read from the daemon's token file.
//   node loop.mjs BASE_URL TOKEN_FILE MODEL PROMPT [--max-steps N]
// Prints one JSON line: {"ok": true, "steps": N, "content": ...} or {"ok": false, "steps": N, "error": ...}.
import { readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import OpenAI from 'openai';

const [baseURL, tokenFile, model, prompt, ...rest] = process.argv.slice(2);
if (!prompt) {
  console.error('usage: node loop.mjs BASE_URL TOKEN_FILE MODEL PROMPT [--max-steps N]');
  process.exit(2);
}
const at = rest.indexOf('--max-steps');
const maxSteps = at >= 0 ? Number(rest[at + 1]) : 40;
const client = new OpenAI({ baseURL, apiKey: readFileSync(tokenFile, 'utf8').trim() });

const fn = (name, description, properties, required) => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
});
const tools = [
  fn('read', 'Read a file', { path: { type: 'string' } }, ['path']),
  fn('edit', 'Replace text in a file', { path: { type: 'string' }, old_text: { type: 'string' },
    new_text: { type: 'string' }, replace_all: { type: 'boolean', default: false } }, ['path', 'old_text', 'new_text']),
  fn('bash', 'Run a shell command', { command: { type: 'string' } }, ['command']),
  fn('write', 'Write a file', { path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
];

function run(name, args) {
  try {
    switch (name) {
      case 'read': return readFileSync(args.path, 'utf8');
      case 'edit': {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes(args.old_text)) return `error: old_text not found in ${args.path}`;
        writeFileSync(args.path, args.replace_all ? text.split(args.old_text).join(args.new_text)
          : text.replace(args.old_text, args.new_text));
        return `edited ${args.path}`;
      }
      case 'bash': return execSync(args.command, { encoding: 'utf8' });
      case 'write': writeFileSync(args.path, args.content); return `wrote ${args.path}`;
      default: return `error: no tool ${name}`;
    }
  } catch (e) {
    return `error: ${e.message}`;
  }
}

const messages = [{ role: 'system', content: 'You are a careful coding agent.' }, { role: 'user', content: prompt }];
let steps = 0;
try {
  while (steps < maxSteps) {
    const done = await client.chat.completions.create({ model, messages, tools });
    steps++;
    const message = done.choices[0].message;
    messages.push(message);
    if (!message.tool_calls?.length) {
      console.log(JSON.stringify({ ok: true, steps, content: message.content }));
      process.exit(0);
    }
    for (const call of message.tool_calls) {
      const output = run(call.function.name, JSON.parse(call.function.arguments || '{}'));
      messages.push({ role: 'tool', tool_call_id: call.id, content: String(output) });
    }
  }
  console.log(JSON.stringify({ ok: false, steps, error: `no final answer in ${maxSteps} steps` }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, steps, status: e.status ?? null, error: String(e.message ?? e) }));
}
