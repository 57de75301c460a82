// Everything decided before a workbench exchange calls the model: task, project, specialist, skill, messages.
// Nothing is written here, so every 4xx comes back in the envelope before a task or run exists.
import type { Db } from '../db/knex.js';
import type { ChatMessage } from '../ai/llm.js';
import type { RunInput, Skill, Specialist, Task, TaskDocument, TaskRun } from '../../contract/workbench.js';
import { WorkbenchErrorCode } from '../../contract/workbench.js';
import { AppError, validationFailed } from '../http/errors.js';
import { findSkillsByKeys, skillConfig } from './definitions.service.js';
import { resolveSpecialist } from './specialists.service.js';
import { findOwnProject } from './projects.service.js';
import { findOwnTask, recentRuns } from './tasks.repository.js';
import { systemInstructions } from './instructions.js';
import { formatDocuments, renderSkillPrompt } from './skill-io.js';
import { MAX_DOCUMENT_CHARS, type WorkerChatInput } from './worker.schema.js';
import { assertSpeakerLabels, callFiguresOf, documentOfRun, requiresSpeakers, resolveDocuments } from './transcript-documents.js';

const HISTORY_RUNS = 10;
const HISTORY_CHARS = 4_000;

export interface ExchangePlan {
  userId: number;
  /** The task named by task_id; undefined when this exchange creates the task. */
  task?: Task;
  title: string;
  projectId: number | null;
  specialist: Specialist;
  skill?: Skill;
  /** Computed before the model runs and put at the head of a report artifact (call_analysis's figures). */
  reportPreamble?: string;
  input: RunInput;
  messages: ChatMessage[];
}

/** The first sentence of a message, trimmed and at most `max` characters (an ellipsis marks a cut). */
export function taskTitle(message: string, max = 100): string {
  const text = message.trim();
  const end = /[.!?](?=\s|$)|[。！？]|\n/.exec(text);
  const sentence = (end ? text.slice(0, end.index + (end[0] === '\n' ? 0 : end[0].length)) : text).trim();
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`;
}

/** The specialist's allowed skills that exist and are active, in its priority order. */
async function allowedSkills(db: Db, specialist: Specialist): Promise<Skill[]> {
  const active = new Map((await findSkillsByKeys(db, specialist.allowed_skills)).filter((s) => s.state === 'active').map((s) => [s.key, s]));
  return specialist.allowed_skills.flatMap((key) => active.get(key) ?? []);
}

const clip = (text: string) => (text.length > HISTORY_CHARS ? `${text.slice(0, HISTORY_CHARS)}…` : text);

const history = (runs: TaskRun[]): ChatMessage[] =>
  runs.flatMap((run): ChatMessage[] => [
    { role: 'user', content: clip(run.input.message) },
    { role: 'assistant', content: clip(run.output) },
  ]);

function userMessage(body: WorkerChatInput, documents: TaskDocument[] | undefined, skill: Skill | undefined, computed: Record<string, string>): string {
  if (skill) return renderSkillPrompt(skill.prompt_template, { message: body.message, documents: documents ?? [], inputs: { ...body.inputs, ...computed } }, skillConfig(skill));
  return documents ? `${body.message}\n\n${formatDocuments(documents)}` : body.message;
}

export async function planExchange(db: Db, userId: number, body: WorkerChatInput): Promise<ExchangePlan> {
  const task = body.task_id == null ? undefined : await findOwnTask(db, userId, body.task_id);
  if (body.project_id != null) await findOwnProject(db, userId, body.project_id);
  // 4.8: the task's specialist wins over specialist_key; nothing resolving means the general assistant.
  const specialist = await resolveSpecialist(db, task?.specialist_key ?? body.specialist_key ?? undefined);
  const skills = await allowedSkills(db, specialist);
  const skill = body.skill_key === undefined ? undefined : skills.find((s) => s.key === body.skill_key);
  if (body.skill_key !== undefined && !skill) {
    throw new AppError(400, WorkbenchErrorCode.skillUnavailable, `The skill "${body.skill_key}" is not an active skill of the specialist "${specialist.key}"`);
  }
  const resolved = body.documents && (await resolveDocuments(db, userId, body.documents));
  if (skill && requiresSpeakers(skill)) assertSpeakerLabels(skill, resolved ?? []);
  const documents = resolved?.map(documentOfRun);
  const figures = skill && skillConfig(skill).call_figures === true ? callFiguresOf(resolved ?? []) : undefined;
  if (documents && documents.reduce((n, d) => n + d.content.length, 0) > MAX_DOCUMENT_CHARS) {
    throw validationFailed(`Invalid documents: documents may hold ${MAX_DOCUMENT_CHARS} characters in all`);
  }
  const past = task ? await recentRuns(db, task.id, HISTORY_RUNS) : [];
  const input: RunInput = { message: body.message };
  if (skill) input.skill_key = skill.key;
  if (documents) input.documents = documents;
  if (body.inputs) input.inputs = body.inputs;
  return {
    userId,
    task,
    title: task?.title ?? taskTitle(body.message),
    projectId: task ? task.project_id : (body.project_id ?? null),
    specialist,
    skill,
    reportPreamble: figures && `# Call analysis\n\n## Figures (computed from the transcript)\n\n${figures}`,
    input,
    messages: [
      { role: 'system', content: systemInstructions(specialist, skills, skill) },
      ...history(past),
      { role: 'user', content: userMessage(body, documents, skill, figures ? { call_figures: figures } : {}) },
    ],
  };
}
