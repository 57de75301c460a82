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

/**
 * Who each segment interrupts: the first earlier segment (in time order) of another speaker that started before it and
 * ends more than INTERRUPTION_MIN_OVERLAP_SECONDS after it starts. One pass: each speaker's started segments wait in a
 * queue in time order; one that has ended for this start has ended for every later one, so it leaves its queue for good.
 */
function interruptionsOf(labelled: LabelledSegment[]): CallFigures['interruptions'] {
  const interruptions: CallFigures['interruptions'] = [];
  const queues = new Map<string, { items: number[]; head: number }>();
  let started = 0; // labelled[0..started) have started strictly before the current segment and are queued
  for (const [i, s] of labelled.entries()) {
    for (; started < i && labelled[started]!.start < s.start; started++) {
      const p = labelled[started]!;
      const queue = queues.get(p.speaker) ?? { items: [], head: 0 };
      queue.items.push(started);
      queues.set(p.speaker, queue);
    }
    let first = -1;
    for (const [speaker, queue] of queues) {
      if (speaker === s.speaker) continue;
      while (queue.head < queue.items.length && !(s.start < labelled[queue.items[queue.head]!]!.end - INTERRUPTION_MIN_OVERLAP_SECONDS)) queue.head++;
      const candidate = queue.items[queue.head];
      if (candidate !== undefined && (first < 0 || candidate < first)) first = candidate;
    }
    if (first >= 0) interruptions.push({ speaker: s.speaker, interrupted: labelled[first]!.speaker, at: round(s.start) });
  }
  return interruptions;
}

type LabelledSegment = TranscriptSegment & { speaker: string };

/** The figures of the segments that carry a speaker label (unlabelled segments are left out). Linear after the sort. */
export function callFigures(segments: TranscriptSegment[]): CallFigures {
  const labelled = segments.filter((s): s is LabelledSegment => s.speaker !== undefined).sort((a, b) => a.start - b.start || a.end - b.end);
  if (!labelled.length) return { duration_seconds: 0, talk_seconds: 0, silence_seconds: 0, speakers: [], longest_monologue: null, interruptions: [] };
  const first = labelled[0]!.start;
  const last = labelled.reduce((max, s) => Math.max(max, s.end), -Infinity);
  const talk = coveredSeconds(labelled);
  const interruptions = interruptionsOf(labelled);

  // Turns: runs of one speaker's segments, in time order, until another speaker's segment starts.
  const turns: { speaker: string; start: number; end: number }[] = [];
  for (const s of labelled) {
    const current = turns.at(-1);
    if (current && current.speaker === s.speaker) current.end = Math.max(current.end, s.end);
    else turns.push({ speaker: s.speaker, start: s.start, end: s.end });
  }
  const longest = turns.reduce<(typeof turns)[number] | undefined>((best, t) => (!best || t.end - t.start > best.end - best.start ? t : best), undefined);

  const groupBy = <T extends { speaker: string }>(items: T[]) => {
    const groups = new Map<string, T[]>();
    for (const item of items) {
      const group = groups.get(item.speaker);
      if (group) group.push(item);
      else groups.set(item.speaker, [item]);
    }
    return groups;
  };
  const segmentsOf = groupBy(labelled);
  const turnsOf = groupBy(turns);
  const interruptionsBy = new Map<string, number>();
  for (const x of interruptions) interruptionsBy.set(x.speaker, (interruptionsBy.get(x.speaker) ?? 0) + 1);
  const names = [...segmentsOf.keys()];
  const secondsOf = new Map(names.map((name) => [name, coveredSeconds(segmentsOf.get(name)!)]));
  const allSpeakersSeconds = names.reduce((n, name) => n + secondsOf.get(name)!, 0);
  const speakers: SpeakerFigures[] = names.map((speaker) => {
    const own = segmentsOf.get(speaker)!;
    const seconds = secondsOf.get(speaker)!;
    const ownTurns = turnsOf.get(speaker) ?? [];
    return {
      speaker,
      talk_seconds: round(seconds),
      talk_ratio: round(seconds / allSpeakersSeconds, 3),
      segments: own.length,
      turns: ownTurns.length,
      questions: own.reduce((n, s) => n + countQuestions(s.text), 0),
      interruptions: interruptionsBy.get(speaker) ?? 0,
      longest_monologue_seconds: round(ownTurns.reduce((max, t) => Math.max(max, t.end - t.start), -Infinity)),
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
