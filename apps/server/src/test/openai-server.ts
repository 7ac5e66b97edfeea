import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the local chat-completions server. */
export type ScriptedAnswer =
  { content: string; delayMs?: number } | { status: number; error: string; delayMs?: number };

export interface ChatRequest {
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name?: string; schema: unknown } };
  };
}

/**
 * A local server speaking the OpenAI chat-completions protocol (`POST /v1/chat/completions`), so
 * tests run the real `ai` client against it: each request takes the next scripted answer (the last
 * one repeats) and is recorded for assertions.
 */
export async function startOpenAiServer(answers: ScriptedAnswer[]) {
  const requests: ChatRequest[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'not found' } }));
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest['body'];
      requests.push({ headers: req.headers, body });
      const answer = answers[Math.min(next++, answers.length - 1)]!;
      setTimeout(() => {
        if (res.destroyed) return;
        if ('status' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({ error: { message: answer.error, type: 'invalid_request_error' } }),
          );
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: answer.content },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
          }),
        );
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
