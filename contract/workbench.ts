// The digital-worker workbench (spec 2.2, 2.3.1, part 3, 4.8, 4.11): specialists, skills, app definitions,
// actions, tasks with runs and artifacts, projects and study notes. Fields named `*_json` carry compact JSON text.
import type { Locale } from './users.js';

export type SpecialistState = 'active' | 'inactive' | 'system';
export type DefinitionState = 'active' | 'inactive';

/** Key of the built-in specialist that answers whenever no other specialist resolves. */
export const GENERAL_ASSISTANT_KEY = 'general_assistant';

/**
 * The names and descriptions the built-ins ship with, as seeded (in English, so that the API's data does not depend
 * on a language). The app shows them in the reader's language (BUILTIN_TEXTS) for as long as they are unchanged; a
 * name or description an admin wrote is shown as written.
 */
export const SHIPPED_TEXTS = {
  batch_extraction: { name: 'Batch extraction', description: 'Extracts the same fields from several documents into one table, one row per document.' },
  contract_review: { name: 'Contract review', description: 'Reviews a contract against a checklist and writes a markdown report of findings and risks.' },
  document_summary: { name: 'Document summary', description: 'Summarises documents into a short markdown brief with the key points and open questions.' },
  call_review: {
    name: 'Call review by speaker',
    description: 'Reviews a transcribed customer call speaker by speaker: who asked what, needs, objections, commitments and next steps.',
  },
  call_analysis: {
    name: 'Call analysis',
    description:
      'Analyses a speaker-labelled call: talk time and share per speaker, longest monologue, questions and interruptions (computed from the transcript), then the objections raised and the commitments made.',
  },
  [GENERAL_ASSISTANT_KEY]: { name: 'General assistant' },
} as const satisfies Record<string, { name: string; description?: string }>;

export type ShippedKey = keyof typeof SHIPPED_TEXTS;

/**
 * The shipped texts in every interface language. They live here rather than in the renderer's translation files
 * because the server needs them too: a search finds an unchanged built-in by its name in any language.
 */
export const BUILTIN_TEXTS: Record<Locale, Record<ShippedKey, { name: string; description?: string }>> = {
  'zh-CN': {
    batch_extraction: { name: '批量提取', description: '从多份文档中提取同样的字段，汇成一张表，每份文档一行。' },
    contract_review: { name: '合同审查', description: '按检查清单审查合同，写出列明发现和风险的 Markdown 报告。' },
    document_summary: { name: '文档摘要', description: '把文档归纳成一份简短的 Markdown 简报，列出要点和待解决的问题。' },
    call_review: { name: '通话复盘（按说话人）', description: '按说话人复盘转写后的客户通话：谁问了什么、需求、异议、承诺和下一步。' },
    call_analysis: { name: '通话分析', description: '分析带说话人标签的通话：每人的发言时长和占比、最长的一段独白、提问和打断次数（由转写算出），再列出提出的异议和做出的承诺。' },
    [GENERAL_ASSISTANT_KEY]: { name: '通用助手' },
  },
  en: SHIPPED_TEXTS,
};

export interface Specialist {
  id: number;
  key: string;
  name: string;
  state: SpecialistState;
  /** The job description placed in the system instructions. */
  rule_file_markdown: string;
  /** Skill keys in priority order. */
  allowed_skills: string[];
  interaction_card_json: string | null;
  inputs_records_json: string | null;
  created_at: string;
  updated_at: string;
}

export type SkillOutputKind = 'table' | 'report';

interface DefinitionBase {
  id: number;
  key: string;
  name: string;
  description: string;
  state: DefinitionState;
  /** Rule 2.3.1: omitted on create → true; omitted on update → kept. */
  exposed_to_user: boolean;
  config_json: string;
  /** Seeded with the product. */
  builtin: boolean;
  created_at: string;
  updated_at: string;
}

export interface Skill extends DefinitionBase {
  object_kind: 'skill';
  /** What a run of the skill stores as its artifact. */
  output_kind: SkillOutputKind;
  /** The user message of a skill run; {{message}}, {{documents}} and {{name}} (from inputs or config_json) are filled in. */
  prompt_template: string;
}

export interface XApp extends DefinitionBase {
  object_kind: 'xapp';
}

export type ActionKind = 'prompt' | 'skill' | 'xapp';

/** A quick launcher on the workbench: a canned prompt, a skill run or an app to open. */
export interface WorkbenchAction {
  id: number;
  key: string;
  name: string;
  description: string;
  kind: ActionKind;
  skill_key: string | null;
  xapp_key: string | null;
  prompt: string;
  config_json: string;
  state: DefinitionState;
  created_at: string;
  updated_at: string;
}

export interface Task {
  id: number;
  user_id: number;
  title: string;
  specialist_key: string;
  project_id: number | null;
  pinned: boolean;
  /** The owner name the task is assigned to (part 6); null when unassigned. */
  owner: string | null;
  created_at: string;
  updated_at: string;
}

export type RunStatus = 'running' | 'succeeded' | 'failed';

export interface TaskDocument {
  name: string;
  content: string;
  /** Set on a run's documents that came from a transcription: where the text came from and what it lacks. */
  transcription?: TranscriptSource;
}

/** A transcription used as a document, as the run records it (note 4.11: say when the audio left the local route). */
export interface TranscriptSource {
  id: number;
  route: { id: number; name: string; provider: string; is_local: boolean };
  left_local: boolean;
  has_speakers: boolean;
  capability_degraded: boolean;
  capability_zh: string;
}

export interface RunInput {
  message: string;
  skill_key?: string;
  documents?: TaskDocument[];
  inputs?: Record<string, unknown>;
}

export interface TaskRun {
  id: number;
  task_id: number;
  kind: 'chat' | 'skill';
  skill_key: string | null;
  /** The specialist that actually answered (the general assistant when none resolved). */
  specialist_key: string;
  status: RunStatus;
  input: RunInput;
  output: string;
  error: string | null;
  route: { id: number | null; name: string; model: string } | null;
  started_at: string;
  finished_at: string | null;
}

export type TableCell = string | number | boolean | null;

export interface TableContent {
  columns: string[];
  rows: TableCell[][];
}

interface ArtifactBase {
  id: number;
  task_id: number;
  run_id: number;
  skill_key: string;
  title: string;
  created_at: string;
}

export type TaskArtifact = (ArtifactBase & { kind: 'table'; content: TableContent }) | (ArtifactBase & { kind: 'report'; content: string });

export interface Project {
  id: number;
  user_id: number;
  name: string;
  description: string;
  task_count: number;
  created_at: string;
  updated_at: string;
}

export interface ProjectDetail extends Project {
  tasks: Task[];
}

export interface StudyNote {
  id: number;
  user_id: number;
  title: string;
  content: string;
  course_id: number | null;
  product_id: number | null;
  task_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Events of POST /api/worker/chat, each sent as one `data: <json>` line. */
export type WorkerChatEvent =
  | { type: 'task'; task_id: number; run_id: number; specialist_key: string }
  | { type: 'text'; content: string }
  | { type: 'artifact'; artifact: TaskArtifact }
  | { type: 'error'; message: string }
  | { type: 'done' };

export const WorkbenchErrorCode = {
  systemSpecialist: 'workbench.system_specialist',
  definitionInUse: 'workbench.definition_in_use',
  skillUnavailable: 'workbench.skill_unavailable',
  skillOutputInvalid: 'workbench.skill_output_invalid',
  speakersRequired: 'workbench.speakers_required',
} as const;
