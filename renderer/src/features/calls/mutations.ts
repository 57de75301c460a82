import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import { postForm } from '../../api/post-form';
import type { TaskArtifact, Transcription, TranscriptionJob, TranscriptRevisionInput, VoiceprintStatus, WorkerChatEvent } from '../../api/types';
import { callsKeys } from './queries';

export interface TranscribeRequest {
  file: File;
  /** Speakers asked for: by channel (stereo) or by voice (mono). */
  speakers: boolean;
  /** Speaker names of the left and right channel (rep, customer); null: A and B, or the rep by voiceprint. */
  channels: [string, string] | null;
  /** Speakers of a mono call (0: find out); null: the server's default (2). */
  speakerCount: number | null;
  onProgress(sentBytes: number): void;
  signal: AbortSignal;
}

/** Sends the recording and starts an asynchronous transcription job (202 with the job at once). */
export function useStartTranscription() {
  return useMutation({
    mutationFn: ({ file, speakers, channels, speakerCount, onProgress, signal }: TranscribeRequest) => {
      const form = new FormData();
      form.set('async', 'true');
      if (speakers) form.set('speakers', 'true');
      if (channels) form.set('channels', channels.join(','));
      if (speakerCount !== null) form.set('speaker_count', String(speakerCount));
      form.set('file', file);
      return postForm<TranscriptionJob>('/audio/transcribe', form, onProgress, signal);
    },
    retry: false,
  });
}

/** Cancels a queued or running job: the server kills whisper.cpp and stores nothing; the job's stream then ends. */
export function useCancelJob() {
  return useMutation({ mutationFn: (id: number) => api.delete<TranscriptionJob>(`/audio/jobs/${id}`) });
}

/** Starts a failed job again from its kept recording: a new job, which replaces the failed one. */
export function useRetryJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<TranscriptionJob>(`/audio/jobs/${id}/retry`),
    onSettled: () => client.invalidateQueries({ queryKey: callsKeys.failedJobs }),
  });
}

/** The call_analysis skill on one transcription: the figures computed on the server, objections and commitments from the model. */
export function useCallAnalysis() {
  return useMutation({
    mutationFn: async ({ transcriptionId, message }: { transcriptionId: number; message: string }) => {
      const seen: { artifact?: TaskArtifact; failure?: string } = {};
      await postEventStream<WorkerChatEvent>(
        '/worker/chat',
        { message, skill_key: 'call_analysis', documents: [{ transcription_id: transcriptionId }] },
        (event) => {
          if (event.type === 'artifact') seen.artifact = event.artifact;
          else if (event.type === 'error') seen.failure = event.message;
        },
      );
      if (seen.failure !== undefined || !seen.artifact) throw new ApiError(500, 'model_stream_failed', seen.failure ?? 'The analysis ended without a report');
      return seen.artifact;
    },
  });
}

/** Saves the editor's transcript as a new revision; the transcription's cache then holds it. */
export function useSaveRevision(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TranscriptRevisionInput) => api.put<Transcription>(`/audio/transcriptions/${id}/segments`, input),
    onSuccess: (saved) => client.setQueryData(callsKeys.transcription(id), saved),
  });
}

/** Records the caller's voiceprint from a recording of their speech (only its embedding is kept). */
export function useEnrolVoiceprint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (recording: Blob) => {
      const form = new FormData();
      form.set('file', recording, 'voiceprint.webm');
      return api.put<VoiceprintStatus>('/audio/voiceprint', form);
    },
    onSuccess: (status) => client.setQueryData(callsKeys.voiceprint, status),
  });
}

export function useDeleteVoiceprint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<VoiceprintStatus>('/audio/voiceprint'),
    onSuccess: (status) => client.setQueryData(callsKeys.voiceprint, status),
  });
}
