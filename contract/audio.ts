/** Speech-to-text (spec 4.11): transcription jobs, stored transcriptions, local models and call figures. */
import type { AiProvider } from './ai.js';

/**
 * Formats named in the spec and the ones call recorders and phones write. The format is detected from the content
 * (ffprobe), never from the file name; any other container ffmpeg decodes with an audio stream is accepted too.
 */
export const CommonAudioFormats = ['mp3', 'wav', 'm4a', 'aac', 'ogg', 'opus', 'flac', 'webm', 'amr'] as const;

/** 200 MB, as for direct document uploads (spec part 8). */
export const MAX_AUDIO_BYTES = 200 * 1024 * 1024;

/** Speaker labels of a stereo call's channels when the request names none: left is "A", right is "B". */
export const DEFAULT_CHANNEL_SPEAKERS = ['A', 'B'] as const;

export interface TranscriptSegment {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  text: string;
  /**
   * Present only when the speaker is known: the channel's or voice's label on the local route (`A`, `B`…, or `rep`,
   * `customer`, `customer_2`… when the caller's voiceprint matched), or the cloud route's label.
   */
  speaker?: string;
}

/** How the speakers of a transcription were found: by the channels of a stereo call, or by voice in a mono one. */
export type SpeakerMethod = 'channels' | 'voices';

/** The speaker closest to the caller's voiceprint, and how close (cosine similarity, -1–1). */
export interface RepMatch {
  speaker: string;
  similarity: number;
}

/** The route as it was when the audio went through it. */
export interface AudioRouteRef {
  /** The id it had then; a stored transcription keeps it even if the route was deleted since. */
  id: number;
  name: string;
  provider: AiProvider;
  /** Local routes (is_local, or provider `local-whisper`) are tried before cloud routes. */
  is_local: boolean;
}

/** One route tried for a transcription, in order; a route that could not run reports why in error. */
export interface TranscriptionAttempt {
  route: AudioRouteRef;
  ok: boolean;
  error?: string;
}

/** What ffprobe found in the uploaded file. */
export interface AudioInfo {
  /** Detected from the content: mp3, wav, m4a, aac, ogg, opus, flac, webm, amr, or ffmpeg's own name of another format. */
  format: string;
  /** The audio codec (e.g. aac, mp3, opus, pcm_s16le). */
  codec: string;
  channels: number;
  sample_rate: number;
  /** Seconds. */
  duration: number;
}

export interface Transcription {
  id: number;
  filename: string;
  file_size: number;
  /** The detected format and layout of the uploaded audio; null for transcriptions stored before it was recorded. */
  audio: AudioInfo | null;
  text: string;
  /** As the route reported it, else the language asked for, else ''. */
  language: string;
  segments: TranscriptSegment[];
  /** Speaker separation was asked for (form field `diarize` or `speakers`). */
  speakers_requested: boolean;
  has_speakers: boolean;
  route: AudioRouteRef;
  /**
   * The audio left this machine for a cloud route although a local route was enabled (a fallback). With no local
   * route enabled at all, `route.is_local: false` says the audio went to the cloud, as configured.
   */
  left_local: boolean;
  /** Speakers were asked for and not labelled, or the audio fell back from a local to a cloud route. */
  capability_degraded: boolean;
  /** A short Chinese explanation of the degradation; '' when there is none. */
  capability_zh: string;
  attempts: TranscriptionAttempt[];
  /** The job that produced it. */
  job_id: number | null;
  /** The audio is kept and can be played (GET /api/audio/transcriptions/{id}/recording). */
  has_recording: boolean;
  created_at: string;
  /** How the speakers were found; null without speakers or when a cloud route labelled them. */
  speaker_method: SpeakerMethod | null;
  /** The speaker matched to the caller's voiceprint, when one matched above the threshold; else null. */
  rep_match: RepMatch | null;
  /** Seconds of speech found by VAD (Whisper ran on these only); null when no VAD ran. */
  speech_seconds: number | null;
  /** The revision shown: 1 is the recognised original, each saved edit adds one. */
  revision: number;
  /** The latest revision (equal to `revision` unless an older one was asked for). */
  latest_revision: number;
  /** Display names of speaker labels given in the editor ({"A": "王经理"}); {} when none. */
  speaker_names: Record<string, string>;
  /** When this revision was saved (created_at for revision 1). */
  revised_at: string;
}

/** PUT /api/audio/transcriptions/{id}/segments: a new revision of the transcript. */
export interface TranscriptRevisionInput {
  /** The revision the edit started from: 409 `audio.revision_conflict` when it is not the latest. */
  base_revision: number;
  segments: TranscriptSegment[];
  speaker_names?: Record<string, string>;
}

/** The caller's voiceprint (GET /api/audio/voiceprint): only the speaker embedding is stored, never the audio. */
export interface VoiceprintStatus {
  enrolled: boolean;
  created_at: string | null;
  speech_seconds: number | null;
}

export const TranscriptExportFormats = ['txt', 'srt', 'vtt', 'docx'] as const;
export type TranscriptExportFormat = (typeof TranscriptExportFormats)[number];

/** A list entry: the transcription without segments and attempts. */
export type TranscriptionSummary = Omit<Transcription, 'segments' | 'attempts' | 'speaker_names' | 'revised_at' | 'latest_revision'>;

export const TranscriptionJobStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type TranscriptionJobState = (typeof TranscriptionJobStates)[number];

/** Where a running job is: waiting for the local slot, decoding with ffmpeg, transcribing, sending to a cloud route. */
export type TranscriptionJobStage = 'queued' | 'decoding' | 'speakers' | 'transcribing' | 'uploading' | 'finished';

export interface TranscriptionJobError {
  /** The HTTP status a synchronous request would have answered. */
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A transcription in progress or finished (GET /api/audio/jobs/{id}). */
export interface TranscriptionJob {
  id: number;
  state: TranscriptionJobState;
  stage: TranscriptionJobStage;
  /** 0–100: decoding counts for the first 5, whisper.cpp's own progress for the rest; 100 once done. */
  percent: number;
  /** While queued: 1 when it runs next. null otherwise. */
  queue_position: number | null;
  filename: string;
  file_size: number;
  audio: AudioInfo;
  language: string | null;
  speakers_requested: boolean;
  /** Speaker labels asked for the left and right channel (form field `channels`), else null ("A", "B"). */
  channel_names: string[] | null;
  /** false when the request forbade cloud routes (`allow_cloud=false`). */
  allow_cloud: boolean;
  /** The route running now, or the one that answered. */
  route: AudioRouteRef | null;
  transcription_id: number | null;
  error: TranscriptionJobError | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One `data:` event of GET /api/audio/jobs/{id}/events; `done`, `error` and `cancelled` end the stream. */
export type TranscriptionJobEvent =
  | { type: 'progress'; job: TranscriptionJob }
  | { type: 'done'; job: TranscriptionJob; transcription_id: number }
  | { type: 'error'; job: TranscriptionJob; error: TranscriptionJobError }
  | { type: 'cancelled'; job: TranscriptionJob };

/** What a model file is, read from the file itself (ggml magic number, ONNX metadata or inputs). */
export const AudioModelKinds = ['whisper', 'speaker-segmentation', 'speaker-embedding', 'vad'] as const;
export type AudioModelKind = (typeof AudioModelKinds)[number];

/** Why a model file cannot be used, as a code and its parameters (the interface words it in the reader's language). */
export type ModelProblem =
  | { code: 'metadata_lacks'; keys: string }
  | { code: 'unknown_framework'; framework: string; known: string }
  | { code: 'no_speaker_metadata' }
  | { code: 'not_a_model' }
  | { code: 'unreadable' };

/**
 * Why speakers cannot be told apart by voice here, as a code and its parameters (the interface words it in the reader's
 * language; `reason_unavailable` says the same in English). `kind` is the model kind, `parameter` the system parameter
 * that names the file `model`; `detail` is sherpa-onnx's own message.
 */
export type SpeakerProblem =
  | { code: 'none_installed'; kind: 'speaker-segmentation' | 'speaker-embedding' }
  | { code: 'named_not_installed'; kind: SpeakerModelKind; model: string; parameter: string }
  | { code: 'named_wrong_kind'; kind: SpeakerModelKind; model: string; parameter: string; found: AudioModelKind | null; problem: ModelProblem | null }
  | { code: 'named_unusable'; kind: SpeakerModelKind; model: string; problem: ModelProblem }
  | { code: 'does_not_load'; detail: string };

export type SpeakerModelKind = Exclude<AudioModelKind, 'whisper'>;

/** A model file found in resources/models or DATA_DIR/models (GET /api/audio/models). */
export interface AudioModel {
  /** From the file's own content; null for a file that is none of the kinds. */
  kind: AudioModelKind | null;
  /** Why the file cannot be used as its kind (metadata missing, not a model at all); null when it looks usable. */
  problem: string | null;
  /** The file name: what a local-whisper route's `model` names. */
  name: string;
  /** `resources` (shipped with the app, read only) or `data` (DATA_DIR/models: installed by an admin). */
  location: 'resources' | 'data';
  size: number;
  sha256: string;
  /** The official whisper.cpp model whose size and sha256 the file has, e.g. "base"; null when unverified. */
  official: string | null;
  /** `official`: name, size and checksum match a published whisper.cpp model; `unverified`: any other file. */
  verification: 'official' | 'unverified';
  modified_at: string;
}

/** POST /api/audio/models: a chunked upload of a model file (same chunk endpoints as media). */
export interface ModelUploadInit {
  upload_id: string;
  chunk_size: number;
  chunk_count: number;
  expires_at: string;
  /** Where the chunks go (raw or multipart, as for media). */
  chunk_url: string;
  /** POST here once every chunk is in. */
  complete_url: string;
}

/** An audio route as any user sees it, with whether it can run here (GET /api/ai/routes/audio). */
export interface AudioRouteStatus {
  available: boolean;
  /** Exactly what is missing (whisper.cpp not built, model file missing, ffmpeg missing, cloud fallback off); null when available. */
  reason_unavailable: string | null;
  /** Local routes only: separating the speakers of mono calls by voice (sherpa-onnx and the two speaker models). */
  speakers?: SpeakerCapability;
  /** Local routes only: the ffmpeg that decodes uploads. */
  decoder?: DecoderInfo;
}

/** Whether speakers can be told apart by voice here, with which model files. */
export interface SpeakerCapability {
  available: boolean;
  /** In plain words: no speaker models installed, a model that does not load (and why); null when available. */
  reason_unavailable: string | null;
  /** The same reasons, each as a code and its parameters, in the same order. */
  problems: SpeakerProblem[];
  segmentation_model: string | null;
  embedding_model: string | null;
  /** The silero VAD model used to find speech before Whisper; null when none is installed. */
  vad_model: string | null;
}

/** The ffmpeg build that decodes audio here. */
export interface DecoderInfo {
  /** `system`: a maintained ffmpeg ≥ 5 of the operating system; `bundled`: the @ffmpeg-installer binary. */
  source: 'system' | 'bundled';
  path: string;
  /** As `ffmpeg -version` says it, e.g. "5.1.9-0+deb12u1"; '' when unknown. */
  version: string;
}

/** Deterministic figures of a speaker-labelled call (server/audio/call-metrics.ts). */
export interface SpeakerFigures {
  speaker: string;
  /** Seconds this speaker talked (overlapping segments of the same speaker counted once). */
  talk_seconds: number;
  /** talk_seconds over the talk time of all speakers, 0–1. */
  talk_ratio: number;
  segments: number;
  /** Turns: runs of this speaker's segments not broken by another speaker. */
  turns: number;
  /** Sentences ending in a question mark (? or ？) or a Chinese question particle (吗/呢/么). */
  questions: number;
  /** Times this speaker started talking while another was still talking. */
  interruptions: number;
  longest_monologue_seconds: number;
}

export interface CallFigures {
  /** From the first segment's start to the last segment's end, seconds. */
  duration_seconds: number;
  talk_seconds: number;
  /** Seconds nobody talked between the first start and the last end. */
  silence_seconds: number;
  speakers: SpeakerFigures[];
  longest_monologue: { speaker: string; start: number; end: number; seconds: number } | null;
  /** Each time a speaker started while another was talking: who, whom, when (seconds). */
  interruptions: { speaker: string; interrupted: string; at: number }[];
}

export const AudioErrorCode = {
  /** Not audio at all (an image, a text, a container with no audio stream). */
  unsupportedAudio: 'unsupported_audio',
  /** Audio that cannot be used: empty, truncated, undecodable, no samples. */
  invalidAudio: 'invalid_audio',
  /** Same code as chat: no enabled audio route could be called. */
  noModelRoute: 'no_model_route',
  /** Every route that could be called failed. */
  modelRouteFailed: 'model_route_failed',
  /** A job that is already finished cannot be cancelled. */
  jobFinished: 'audio.job_finished',
  /** Only a failed job can be retried. */
  jobNotFailed: 'audio.job_not_failed',
  /** The recording of a failed job was not kept (it failed before failed jobs kept theirs, or the server stopped): send the file again. */
  retryUnavailable: 'audio.retry_unavailable',
  /** A job whose runs were all stopped by a server stopping (or a node lost) before it finished. */
  jobInterrupted: 'audio.job_interrupted',
  /** A model file name that is not a plain `*.bin` name. */
  invalidModelName: 'audio.invalid_model_name',
  /** The uploaded model is not a ggml Whisper model (wrong magic), or does not match the sha256 given at init. */
  invalidModel: 'audio.invalid_model',
  /** A model of that name exists already (remove it first). */
  modelExists: 'audio.model_exists',
  /** Models shipped in resources/models cannot be removed through the API. */
  modelReadOnly: 'audio.model_read_only',
  /** The audio of the transcription is not kept (transcribed before recordings were kept, or removed by its owner). */
  recordingUnavailable: 'audio.recording_unavailable',
  /** An edit saved on a revision that is no longer the latest (someone saved in between). */
  revisionConflict: 'audio.revision_conflict',
  /** A voiceprint sample with too little speech (under 8 s). */
  voiceprintTooShort: 'audio.voiceprint_too_short',
  /** Voiceprints need the speaker-embedding model, which is not installed or does not load. */
  speakerModelsUnavailable: 'audio.speaker_models_unavailable',
} as const;
