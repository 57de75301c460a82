// The child process that runs sherpa-onnx (speaker diarization, speaker embeddings, silero VAD) for the server. It
// takes one task from its parent, answers with progress and one result, and exits. sherpa-onnx's native code ends
// the process it runs in on some malformed models (_Exit), so it never runs in the server's own process
// (sherpa-runner.ts starts this file and turns a crash into a plain reason).
import { createRequire } from 'node:module';
import type { SherpaReply, SherpaTask } from './sherpa-protocol.js';

interface Wave {
  samples: Float32Array;
  sampleRate: number;
}
interface Stream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface Sherpa {
  readWave(file: string): Wave;
  OfflineSpeakerDiarization: new (config: object) => { sampleRate: number; process(samples: Float32Array): { start: number; end: number; speaker: number }[] };
  SpeakerEmbeddingExtractor: new (config: object) => { dim: number; createStream(): Stream; isReady(stream: Stream): boolean; compute(stream: Stream): Float32Array };
  Vad: new (config: object, bufferSeconds: number) => {
    acceptWaveform(samples: Float32Array): void;
    isEmpty(): boolean;
    front(): { start: number; samples: Float32Array };
    pop(): void;
    flush(): void;
  };
}

const send = (reply: SherpaReply) => new Promise<void>((resolve) => process.send!(reply, () => resolve()));

function load(): Sherpa {
  return createRequire(import.meta.url)('sherpa-onnx-node') as Sherpa;
}

/** The samples of [start, end) seconds of each range, end to end. */
function slice(wave: Wave, ranges: { start: number; end: number }[]): Float32Array {
  const parts = ranges.map((r) => wave.samples.subarray(Math.max(0, Math.floor(r.start * wave.sampleRate)), Math.min(wave.samples.length, Math.ceil(r.end * wave.sampleRate))));
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function run(task: SherpaTask): Promise<SherpaReply> {
  const sherpa = load();
  switch (task.type) {
    case 'load': {
      // Loading is what fails on a broken model: a diarizer builds both models (and checks their metadata).
      const diarizer =
        task.segmentation && task.embedding
          ? new sherpa.OfflineSpeakerDiarization({
              segmentation: { pyannote: { model: task.segmentation }, numThreads: 1 },
              embedding: { model: task.embedding, numThreads: 1 },
              clustering: { numClusters: 2 },
            })
          : undefined;
      const extractor = task.embedding ? new sherpa.SpeakerEmbeddingExtractor({ model: task.embedding, numThreads: 1 }) : undefined;
      if (task.vad) new sherpa.Vad({ sileroVad: { model: task.vad, windowSize: 512 }, sampleRate: 16_000, numThreads: 1 }, 30);
      return { type: 'result', result: { type: 'load', sample_rate: diarizer?.sampleRate ?? null, dim: extractor?.dim ?? null } };
    }
    case 'diarize': {
      const wave = sherpa.readWave(task.wav);
      await send({ type: 'progress', fraction: 0.05 });
      const diarizer = new sherpa.OfflineSpeakerDiarization({
        segmentation: { pyannote: { model: task.segmentation }, numThreads: task.threads },
        embedding: { model: task.embedding, numThreads: task.threads },
        clustering: task.speakers > 0 ? { numClusters: task.speakers } : { numClusters: -1, threshold: task.threshold },
        minDurationOn: 0.3,
        minDurationOff: 0.5,
      });
      await send({ type: 'progress', fraction: 0.1 });
      const segments = diarizer.process(wave.samples).map((s) => ({ start: s.start, end: s.end, speaker: s.speaker }));
      await send({ type: 'progress', fraction: 0.9 });
      // The embedding of each speaker's speech, so that the server can tell which one is the rep.
      if (!task.embed) return { type: 'result', result: { type: 'diarize', segments, embeddings: [] } };
      const extractor = new sherpa.SpeakerEmbeddingExtractor({ model: task.embedding, numThreads: task.threads });
      const speakers = [...new Set(segments.map((s) => s.speaker))].sort((a, b) => a - b);
      const embeddings = speakers.map((speaker) => {
        const stream = extractor.createStream();
        stream.acceptWaveform({ samples: slice(wave, segments.filter((s) => s.speaker === speaker)), sampleRate: wave.sampleRate });
        stream.inputFinished();
        return { speaker, embedding: extractor.isReady(stream) ? Array.from(extractor.compute(stream)) : [] };
      });
      return { type: 'result', result: { type: 'diarize', segments, embeddings } };
    }
    case 'embed': {
      const extractor = new sherpa.SpeakerEmbeddingExtractor({ model: task.embedding, numThreads: task.threads });
      const waves = new Map<string, Wave>();
      const embeddings = task.items.map(({ wav, ranges }) => {
        const wave = waves.get(wav) ?? sherpa.readWave(wav);
        waves.set(wav, wave);
        const stream = extractor.createStream();
        const samples = ranges.length ? slice(wave, ranges) : wave.samples;
        stream.acceptWaveform({ samples, sampleRate: wave.sampleRate });
        stream.inputFinished();
        return extractor.isReady(stream) ? Array.from(extractor.compute(stream)) : [];
      });
      return { type: 'result', result: { type: 'embed', embeddings } };
    }
    case 'vad': {
      const wave = sherpa.readWave(task.wav);
      const vad = new sherpa.Vad(
        { sileroVad: { model: task.vad, threshold: 0.5, minSilenceDuration: 0.5, minSpeechDuration: 0.25, maxSpeechDuration: 30, windowSize: 512 }, sampleRate: wave.sampleRate, numThreads: 1 },
        60,
      );
      const regions: { start: number; end: number }[] = [];
      const drain = () => {
        while (!vad.isEmpty()) {
          const segment = vad.front();
          regions.push({ start: segment.start / wave.sampleRate, end: (segment.start + segment.samples.length) / wave.sampleRate });
          vad.pop();
        }
      };
      const step = 512;
      let reported = 0;
      for (let i = 0; i + step <= wave.samples.length; i += step) {
        vad.acceptWaveform(wave.samples.subarray(i, i + step));
        drain();
        const fraction = i / wave.samples.length;
        if (fraction - reported >= 0.1) {
          reported = fraction;
          await send({ type: 'progress', fraction });
        }
      }
      vad.flush();
      drain();
      return { type: 'result', result: { type: 'vad', regions, seconds: wave.samples.length / wave.sampleRate } };
    }
  }
}

process.once('message', (task: SherpaTask) => {
  run(task)
    .then(send, (err: unknown) => send({ type: 'error', message: err instanceof Error ? err.message : String(err) }))
    .finally(() => process.exit(0));
});
