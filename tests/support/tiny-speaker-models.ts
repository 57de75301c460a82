// Writes the three speaker models sherpa-onnx loads, in their real ONNX format and with the metadata its loaders
// require, but with a handful of weights set by hand instead of trained ones (no model can be downloaded here):
//
// - segmentation (pyannote segmentation 3.0 layout: input x [1, 1, window], output y [1, frames, 7 powerset
//   classes], metadata sample_rate, window_size, receptive_field_size/shift, num_speakers, powerset_max_classes,
//   num_classes): a frame is silence below -50 dBFS (its energy smoothed over 0.3 s), else local speaker 1 or 2 by
//   whether its energy near 100 Hz or near 220 Hz is stronger: a crude pitch split, as the real model splits voices
//   within its window.
// - embedding (3D-Speaker / wespeaker layout: input x [1, T, 80] log-mel fbank, output embedding [1, D], metadata
//   framework, output_dim, sample_rate, normalize_samples, language): the mean over time of each frame's low mel bands
//   minus that frame's mean, i.e. the shape of the low spectrum, which follows a voice's pitch. Two espeak-ng voices
//   of different pitch come out far apart in cosine distance, two sentences of one voice close together.
// - vad (silero VAD v5 layout: inputs input [1, 576], state [2, 1, 128], sr; outputs output [1, 1], stateN): the
//   window's energy through a steep sigmoid around -50 dBFS.
import fs from 'node:fs/promises';
import path from 'node:path';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';

// onnx-proto is CommonJS: its namespace comes as the default export.
const { onnx } = onnxProto;

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

const SAMPLE_RATE = 16_000;
/** Segmentation window (samples: 5 s) and frame (samples: 20 ms, without overlap). */
const WINDOW = 80_000;
const FRAME = 320;
const FRAMES = WINDOW / FRAME;
/** Frames the energy is averaged over (0.3 s), and the pitch bands (0.6 s). */
const SMOOTH = 15;
const PITCH_SMOOTH = 31;
/** Pitch bands (Hz) of a low voice and of a high one, and where between them the split lies (natural log of the ratio). */
const LOW_HZ = [80, 100, 120, 140];
const HIGH_HZ = [180, 210, 240, 270];
const PITCH_SPLIT = -2.5;
/** Speech threshold of the mean power (-50 dBFS) in natural log. */
const SPEECH_LOG_POWER = Math.log(1e-5);
/** Mel bands the embedding looks at (of 80, the first ones: up to about 1 kHz). */
const EMBEDDING_BANDS = 24;
/**
 * The low-spectrum shape common to speech, subtracted so that what is left is how a voice differs from it (set by
 * hand: halfway between the two espeak-ng voices the tests use, en-us and en+f3 at pitch 65, over WAV and AMR).
 */
const SPEECH_SHAPE = [-4.22, -3.48, -2.48, -2.11, -1.61, -0.92, 0.13, 1.06, 1.19, 1.14, 0.94, 0.65, 0.68, 1.08, 1.51, 1.87, 1.75, 1.16, 0.72, 0.36, 0.39, 0.2, 0.12, -0.12];

type Dim = number | string;

const valueInfo = (name: string, elemType: number, dims: Dim[]) =>
  onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } } },
  });

const floats = (name: string, dims: number[], values: number[]) => onnx.TensorProto.create({ name, dims, dataType: FLOAT, floatData: values });
const int64s = (name: string, values: number[]) => onnx.TensorProto.create({ name, dims: [values.length], dataType: INT64, int64Data: values });

const ints = (name: string, values: number[]) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
const int = (name: string, value: number) => onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });

/** A moving average over the last axis of [N, C, L], `kernel` (odd) wide, edges averaged over what there is. */
const pool = (input: string, output: string, kernel: number) =>
  node('AveragePool', [input], [output], [ints('kernel_shape', [kernel]), ints('pads', [(kernel - 1) / 2, (kernel - 1) / 2]), int('count_include_pad', 0)]);

const node = (opType: string, input: string[], output: string[], attribute: OnnxTypes.IAttributeProto[] = []) => onnx.NodeProto.create({ opType, input, output, attribute, name: output[0] });

function model(graph: OnnxTypes.IGraphProto, metadata: Record<string, string | number>): Uint8Array {
  const proto = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'trainbench-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
    metadataProps: Object.entries(metadata).map(([key, value]) => ({ key, value: String(value) })),
  });
  return onnx.ModelProto.encode(proto).finish();
}

/** Sums of squared projections on cosines and sines at `low` and `high` frequencies: [FRAME, 2 × 2K] and [2 × 2K, 2]. */
function bandProjection(): { basis: number[]; sum: number[] } {
  const freqs = [...LOW_HZ, ...HIGH_HZ];
  const basis: number[] = [];
  for (let n = 0; n < FRAME; n++) {
    const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * n) / FRAME);
    for (const f of freqs) basis.push(hann * Math.cos((2 * Math.PI * f * n) / SAMPLE_RATE), hann * Math.sin((2 * Math.PI * f * n) / SAMPLE_RATE));
  }
  const sum: number[] = [];
  freqs.forEach((_, i) => {
    const low = i < LOW_HZ.length ? 1 : 0;
    sum.push(low, 1 - low, low, 1 - low); // the cosine and the sine row
  });
  return { basis, sum };
}

/**
 * The segmentation model. Per 20 ms frame: the power, and the power near a low voice's pitch (80–140 Hz) against a
 * high voice's (180–270 Hz), averaged over 0.3 s and 0.6 s. Silence below -50 dBFS; else local speaker 1 when the low
 * band wins by more than PITCH_SPLIT (natural log), local speaker 2 otherwise.
 */
export function segmentationModel(): Uint8Array {
  const { basis, sum } = bandProjection();
  // Logits of the 7 powerset classes from [log power, log low, log high] (ε weighs the pitch in barely beside power).
  const e = 0.05;
  const weights = [
    [0, 1, 1, 0, 0, 0, 0],
    [0, e, -e, 0, 0, 0, 0],
    [0, -e, e, 0, 0, 0, 0],
  ].flat();
  const bias = [SPEECH_LOG_POWER, -e * PITCH_SPLIT, e * PITCH_SPLIT, -1e4, -1e4, -1e4, -1e4];
  const bands = LOW_HZ.length + HIGH_HZ.length;
  const graph = onnx.GraphProto.create({
    name: 'tiny-energy-pitch-segmentation',
    input: [valueInfo('x', FLOAT, ['N', 1, WINDOW])],
    output: [valueInfo('y', FLOAT, ['N', FRAMES, 7])],
    initializer: [
      int64s('frames_shape', [1, FRAMES, FRAME]),
      int64s('row_shape', [1, 1, FRAMES]),
      floats('basis', [FRAME, bands * 2], basis),
      floats('band_sum', [bands * 2, 2], sum),
      floats('eps', [], [1e-10]),
      floats('w', [3, 7], weights),
      floats('b', [7], bias),
    ],
    node: [
      node('Reshape', ['x', 'frames_shape'], ['framed']), // [1, F, S]
      node('Mul', ['framed', 'framed'], ['squared']),
      node('ReduceMean', ['squared'], ['power'], [ints('axes', [2]), int('keepdims', 0)]), // [1, F]
      node('Reshape', ['power', 'row_shape'], ['power_row']), // [1, 1, F]
      node('MatMul', ['framed', 'basis'], ['projections']), // [1, F, 2B]
      node('Mul', ['projections', 'projections'], ['projection_power']),
      node('MatMul', ['projection_power', 'band_sum'], ['band_power']), // [1, F, 2]
      node('Transpose', ['band_power'], ['band_rows'], [ints('perm', [0, 2, 1])]), // [1, 2, F]
      pool('power_row', 'power_smooth', SMOOTH),
      pool('band_rows', 'band_smooth', PITCH_SMOOTH),
      node('Concat', ['power_smooth', 'band_smooth'], ['smooth'], [int('axis', 1)]), // [1, 3, F]
      node('Add', ['smooth', 'eps'], ['floored']),
      node('Log', ['floored'], ['logs']),
      node('Transpose', ['logs'], ['per_frame'], [ints('perm', [0, 2, 1])]), // [1, F, 3]
      node('MatMul', ['per_frame', 'w'], ['scaled']),
      node('Add', ['scaled', 'b'], ['y']),
    ],
  });
  return model(graph, {
    model_type: 'pyannote-segmentation-3.0',
    model_author: 'trainbench-tests',
    license: 'MIT',
    sample_rate: SAMPLE_RATE,
    window_size: WINDOW,
    receptive_field_size: FRAME,
    receptive_field_shift: FRAME,
    num_speakers: 3,
    powerset_max_classes: 2,
    num_classes: 7,
  });
}

/** The embedding model: the mean shape of the low mel spectrum. */
export function embeddingModel(): Uint8Array {
  const select: number[] = [];
  for (let band = 0; band < 80; band++) for (let out = 0; out < EMBEDDING_BANDS; out++) select.push(band === out ? 1 : 0);
  const graph = onnx.GraphProto.create({
    name: 'tiny-band-embedding',
    input: [valueInfo('x', FLOAT, ['N', 'T', 80])],
    output: [valueInfo('embedding', FLOAT, ['N', EMBEDDING_BANDS])],
    initializer: [floats('select', [80, EMBEDDING_BANDS], select), floats('speech_shape', [EMBEDDING_BANDS], SPEECH_SHAPE)],
    node: [
      node('MatMul', ['x', 'select'], ['low']), // [1, T, B]
      node('ReduceMean', ['low'], ['frame_mean'], [ints('axes', [2]), int('keepdims', 1)]),
      node('Sub', ['low', 'frame_mean'], ['shape']),
      node('ReduceMean', ['shape'], ['voice_shape'], [ints('axes', [1]), int('keepdims', 0)]),
      node('Sub', ['voice_shape', 'speech_shape'], ['embedding']),
    ],
  });
  return model(graph, {
    framework: '3d-speaker',
    language: 'English',
    url: 'tests/support/tiny-speaker-models.ts',
    comment: 'hand-set weights for tests',
    output_dim: EMBEDDING_BANDS,
    sample_rate: SAMPLE_RATE,
    normalize_samples: 1,
  });
}

/** The VAD model (silero v5 inputs and outputs): probability of speech from the window's energy. */
export function vadModel(): Uint8Array {
  const graph = onnx.GraphProto.create({
    name: 'tiny-energy-vad',
    input: [valueInfo('input', FLOAT, ['N', 'S']), valueInfo('state', FLOAT, [2, 'N', 128]), valueInfo('sr', INT64, [])],
    output: [valueInfo('output', FLOAT, ['N', 1]), valueInfo('stateN', FLOAT, [2, 'N', 128])],
    initializer: [floats('eps', [], [1e-10]), floats('threshold', [], [SPEECH_LOG_POWER]), floats('steepness', [], [4])],
    node: [
      node('Mul', ['input', 'input'], ['squared']),
      node('ReduceMean', ['squared'], ['power'], [ints('axes', [1]), int('keepdims', 1)]),
      node('Add', ['power', 'eps'], ['floored']),
      node('Log', ['floored'], ['log_power']),
      node('Sub', ['log_power', 'threshold'], ['above']),
      node('Mul', ['above', 'steepness'], ['logit']),
      node('Sigmoid', ['logit'], ['output']),
      node('Identity', ['state'], ['stateN']),
    ],
  });
  return model(graph, {});
}

/** Writes the three models into `dir` and returns their paths. */
export async function writeTinySpeakerModels(dir: string): Promise<{ segmentation: string; embedding: string; vad?: string }> {
  await fs.mkdir(dir, { recursive: true });
  const files = {
    segmentation: path.join(dir, 'tiny-segmentation.onnx'),
    embedding: path.join(dir, 'tiny-embedding.onnx'),
    vad: path.join(dir, 'tiny-silero-vad.onnx'),
  };
  await fs.writeFile(files.segmentation, segmentationModel());
  await fs.writeFile(files.embedding, embeddingModel());
  await fs.writeFile(files.vad, vadModel());
  return files;
}
