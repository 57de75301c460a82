// Shared by the workbench test files: the fake model wired in as the chat route, and the worker chat over SSE.
import assert from 'node:assert/strict';
import type { TestServer } from '../support/server.js';
import { startFakeModel, type FakeModel, type FakeModelBehaviour } from '../support/fake-model.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ChatEvent = { type: string } & Record<string, any>;

/** Parses a server-sent event body into its `data:` JSON events, checking the framing on the way. */
export function sseEvents(body: string): ChatEvent[] {
  const frames = body.split('\n\n').filter((f) => f.trim());
  return frames.map((frame) => {
    assert.match(frame, /^data: /, `every event is a data line: ${JSON.stringify(frame)}`);
    return JSON.parse(frame.slice('data: '.length)) as ChatEvent;
  });
}

/** Starts the fake model and makes it the system-config chat route (spec 4.9 llm_base_url / llm_model). */
export async function useFakeModel(ts: TestServer, behaviour: FakeModelBehaviour = {}): Promise<FakeModel> {
  const fake = await startFakeModel(behaviour);
  const res = await ts.api.put('/api/system/config', { token: ts.adminToken, body: { configs: { llm_base_url: fake.baseUrl, llm_model: 'fake-model' } } });
  assert.equal(res.status, 200, res.text);
  return fake;
}

export interface ChatReply {
  status: number;
  contentType: string;
  events: ChatEvent[];
  /** The text events joined. */
  text: string;
  taskId: number;
  runId: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  envelope: any;
}

/** POST /api/worker/chat; a 200 is read as an event stream, anything else as the envelope. */
export async function workerChat(ts: TestServer, token: string, body: Record<string, unknown>): Promise<ChatReply> {
  const res = await ts.api.post('/api/worker/chat', { token, body });
  const contentType = res.headers.get('content-type') ?? '';
  if (res.status !== 200) return { status: res.status, contentType, events: [], text: '', taskId: 0, runId: 0, envelope: res.body };
  assert.match(contentType, /^text\/event-stream/);
  const events = sseEvents(res.text);
  const first = events[0];
  assert.equal(first?.type, 'task', `the first event names the task: ${res.text}`);
  const text = events.filter((e) => e.type === 'text').map((e) => e.content as string).join('');
  return { status: res.status, contentType, events, text, taskId: first.task_id, runId: first.run_id, envelope: undefined };
}

/** A chat that must succeed: a stream that ends with done. */
export async function chatOk(ts: TestServer, token: string, body: Record<string, unknown>): Promise<ChatReply> {
  const reply = await workerChat(ts, token, body);
  assert.equal(reply.status, 200, JSON.stringify(reply.envelope));
  assert.equal(reply.events.at(-1)?.type, 'done', JSON.stringify(reply.events));
  return reply;
}

/** The system message of the last request the fake model received. */
export function lastSystemPrompt(fake: FakeModel): string {
  const messages = fake.requests.at(-1)?.body.messages ?? [];
  assert.equal(messages[0]?.role, 'system');
  return messages[0]!.content;
}
