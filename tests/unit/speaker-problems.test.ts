// Why speakers cannot be told apart by voice: the server's codes and parameters (server/audio/speakers/
// speaker-models.ts) worded by the speech admin page in the reader's language (renderer/src/features/speech/
// speaker-problems.ts), never the server's English words under a Chinese interface.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import type { SpeakerProblem } from '../../contract/audio.js';
import { speakerProblemText as inEnglish } from '../../server/audio/speakers/speaker-models.js';
import { speakerProblemText } from '../../renderer/src/features/speech/speaker-problems.js';

const locales = path.resolve(import.meta.dirname, '../../renderer/src/i18n/locales');
const transcript = (lang: string) => JSON.parse(fs.readFileSync(path.join(locales, lang, 'transcript.json'), 'utf8'));
const i18n = i18next.createInstance();
await i18n.init({ lng: 'zh-CN', resources: { 'zh-CN': { translation: { transcript: transcript('zh-CN') } }, en: { translation: { transcript: transcript('en') } } }, interpolation: { escapeValue: false } });

const PROBLEMS: SpeakerProblem[] = [
  { code: 'none_installed', kind: 'speaker-segmentation' },
  { code: 'none_installed', kind: 'speaker-embedding' },
  { code: 'named_not_installed', kind: 'vad', model: 'silero.onnx', parameter: 'audio_vad_model' },
  { code: 'named_wrong_kind', kind: 'speaker-segmentation', model: 'random.onnx', parameter: 'audio_speaker_segmentation_model', found: null, problem: { code: 'not_a_model' } },
  { code: 'named_wrong_kind', kind: 'speaker-segmentation', model: 'vad-copy.onnx', parameter: 'audio_speaker_segmentation_model', found: 'vad', problem: null },
  { code: 'named_wrong_kind', kind: 'speaker-embedding', model: 'odd.onnx', parameter: 'audio_speaker_embedding_model', found: null, problem: { code: 'unknown_framework', framework: 'kaldi', known: 'wespeaker, 3d-speaker, nemo' } },
  { code: 'named_wrong_kind', kind: 'speaker-embedding', model: 'bare.onnx', parameter: 'audio_speaker_embedding_model', found: null, problem: { code: 'no_speaker_metadata' } },
  { code: 'named_unusable', kind: 'speaker-embedding', model: 'cam.onnx', problem: { code: 'metadata_lacks', keys: 'output_dim, language' } },
  { code: 'named_unusable', kind: 'speaker-segmentation', model: 'gone.onnx', problem: { code: 'unreadable' } },
  { code: 'does_not_load', detail: 'Protobuf parsing failed' },
];

describe('speaker problems in the reader\'s language', () => {
  test('Chinese: every code is worded in Chinese with its parameters, none falls back to the server\'s English', () => {
    const t = i18n.getFixedT('zh-CN');
    for (const problem of PROBLEMS) {
      const text = speakerProblemText(problem, t);
      assert.match(text, /[\u4e00-\u9fff]/, `${JSON.stringify(problem)} → ${text}`);
      assert.ok(!text.includes('transcript.admin'), `a missing key: ${text}`);
      assert.notEqual(text, inEnglish(problem));
      for (const value of ['model', 'parameter', 'detail'] as const) {
        const param = (problem as Record<string, unknown>)[value];
        if (typeof param === 'string') assert.ok(text.includes(param), `${text} names ${param}`);
      }
    }
    assert.equal(
      speakerProblemText(PROBLEMS[3]!, t),
      '系统参数 audio_speaker_segmentation_model 指定的 random.onnx 不是说话人分段模型：既不是 ggml 格式的 Whisper 模型，也不是 ONNX 模型',
    );
    assert.equal(speakerProblemText(PROBLEMS[4]!, t), '系统参数 audio_speaker_segmentation_model 指定的 vad-copy.onnx 不是说话人分段模型：它是语音检测（VAD）模型');
  });

  test('English: worded from the same codes', () => {
    const t = i18n.getFixedT('en');
    assert.equal(speakerProblemText(PROBLEMS[7]!, t), 'cam.onnx cannot be used: its metadata lacks output_dim, language');
    assert.equal(speakerProblemText(PROBLEMS[9]!, t), 'The models do not load in sherpa-onnx (Protobuf parsing failed)');
  });
});
