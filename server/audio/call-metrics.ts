// Deterministic figures of a speaker-labelled call, computed from the segments alone (no model): talk time per
// speaker and its share, turns, the longest monologue, questions asked and interruptions. Pure functions, shared by
// the call_analysis skill and the coaching reports.
import type { CallFigures, SpeakerFigures, TranscriptSegment } from '../../contract/audio.js';

/** A speaker who starts this long before the other's segment ends is interrupting; less is a normal hand-over. */
export const INTERRUPTION_MIN_OVERLAP_SECONDS = 0.3;

const round = (n: number, places = 2) => Math.round(n * 10 ** places) / 10 ** places;

/** Seconds covered by the intervals, overlaps counted once. */
export function coveredSeconds(intervals: { start: number; end: number }[]): number {
  const sorted = [...intervals].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  let total = 0;
  let until = -Infinity;
  for (const { start, end } of sorted) {
    if (end <= until) continue;
    total += end - Math.max(start, until);
    until = end;
  }
  return total;
}

/** Sentences that ask: ending in ? or ？, or in a Chinese question particle (吗, 呢, 么) before the sentence's end. */
export function countQuestions(text: string): number {
  const sentences = text.match(/[^.!?。！？\n]+[.!?。！？]*/g) ?? [];
  return sentences.filter((s) => {
    const trimmed = s.trim();
    return /[?？]$/.test(trimmed) || /[吗呢么][。！!.]?$/.test(trimmed);
  }).length;
}

/** The figures of the segments that carry a speaker label (unlabelled segments are left out). */
export function callFigures(segments: TranscriptSegment[]): CallFigures {
  const labelled = segments.filter((s): s is TranscriptSegment & { speaker: string } => s.speaker !== undefined).sort((a, b) => a.start - b.start || a.end - b.end);
  if (!labelled.length) return { duration_seconds: 0, talk_seconds: 0, silence_seconds: 0, speakers: [], longest_monologue: null, interruptions: [] };
  const first = labelled[0]!.start;
  const last = Math.max(...labelled.map((s) => s.end));
  const talk = coveredSeconds(labelled);

  const interruptions: CallFigures['interruptions'] = [];
  for (const [i, s] of labelled.entries()) {
    const interrupted = labelled.slice(0, i).find((p) => p.speaker !== s.speaker && p.start < s.start && s.start < p.end - INTERRUPTION_MIN_OVERLAP_SECONDS);
    if (interrupted) interruptions.push({ speaker: s.speaker, interrupted: interrupted.speaker, at: round(s.start) });
  }

  // Turns: runs of one speaker's segments, in time order, until another speaker's segment starts.
  const turns: { speaker: string; start: number; end: number }[] = [];
  for (const s of labelled) {
    const current = turns.at(-1);
    if (current && current.speaker === s.speaker) current.end = Math.max(current.end, s.end);
    else turns.push({ speaker: s.speaker, start: s.start, end: s.end });
  }
  const longest = turns.reduce<(typeof turns)[number] | undefined>((best, t) => (!best || t.end - t.start > best.end - best.start ? t : best), undefined);

  const names = [...new Set(labelled.map((s) => s.speaker))];
  const speakers: SpeakerFigures[] = names.map((speaker) => {
    const own = labelled.filter((s) => s.speaker === speaker);
    const seconds = coveredSeconds(own);
    const ownTurns = turns.filter((t) => t.speaker === speaker);
    return {
      speaker,
      talk_seconds: round(seconds),
      talk_ratio: round(seconds / names.reduce((n, name) => n + coveredSeconds(labelled.filter((s) => s.speaker === name)), 0), 3),
      segments: own.length,
      turns: ownTurns.length,
      questions: own.reduce((n, s) => n + countQuestions(s.text), 0),
      interruptions: interruptions.filter((x) => x.speaker === speaker).length,
      longest_monologue_seconds: round(Math.max(...ownTurns.map((t) => t.end - t.start))),
    };
  });

  return {
    duration_seconds: round(last - first),
    talk_seconds: round(talk),
    silence_seconds: round(Math.max(0, last - first - talk)),
    speakers,
    longest_monologue: longest ? { speaker: longest.speaker, start: round(longest.start), end: round(longest.end), seconds: round(longest.end - longest.start) } : null,
    interruptions,
  };
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

/** The figures as a markdown section (a table per speaker, then the longest monologue and the interruptions). */
export function callFiguresMarkdown(name: string, figures: CallFigures): string {
  const rows = figures.speakers.map((s) => `| ${s.speaker} | ${s.talk_seconds} | ${percent(s.talk_ratio)} | ${s.turns} | ${s.longest_monologue_seconds} | ${s.questions} | ${s.interruptions} |`);
  const longest = figures.longest_monologue;
  return [
    `### ${name}`,
    '',
    `Duration ${figures.duration_seconds} s, talk ${figures.talk_seconds} s, silence ${figures.silence_seconds} s.`,
    '',
    '| Speaker | Talk (s) | Share | Turns | Longest monologue (s) | Questions | Interruptions |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    longest ? `Longest monologue: ${longest.speaker}, ${longest.seconds} s (from ${longest.start} s to ${longest.end} s).` : 'No monologue.',
    figures.interruptions.length ? `Interruptions: ${figures.interruptions.map((x) => `${x.speaker} interrupted ${x.interrupted} at ${x.at} s`).join('; ')}.` : 'No interruptions.',
  ].join('\n');
}
