import { useMutation } from '@tanstack/react-query';
import { ApiError, api } from '../../api/client';
import { postEventStream } from '../../api/event-stream';
import { postForm } from '../../api/post-form';
import type { TaskArtifact, TranscriptionJob, WorkerChatEvent } from '../../api/types';

export interface TranscribeRequest {
  file: File;
  /** Speaker names of the left and right channel (rep, customer); null: no speakers asked for. */
  channels: [string, string] | null;
  onProgress(sentBytes: number): void;
  signal: AbortSignal;
}

/** Sends the recording and starts an asynchronous transcription job (202 with the job at once). */
export function useStartTranscription() {
  return useMutation({
    mutationFn: ({ file, channels, onProgress, signal }: TranscribeRequest) => {
      const form = new FormData();
      form.set('async', 'true');
      if (channels) form.set('channels', channels.join(','));
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
