// Which speaker is the rep: the speaker (a voice cluster of a mono call, or a channel of a stereo one) whose speaker
// embedding is closest to the caller's voiceprint, when it is at least REP_SIMILARITY close (cosine similarity).
// That speaker is `rep`, the others `customer`, `customer_2`, … in the order they first speak. Otherwise the labels
// stay `A`, `B`, … and the rep picks in the UI.

/**
 * Cosine similarity at which a speaker is taken for the caller. Speaker-verification models such as 3D-Speaker's
 * CAM++ put two recordings of one person well above it and two people well below (sherpa-onnx's own speaker
 * identification examples use 0.5–0.6).
 */
export const REP_SIMILARITY = 0.5;

export function cosineSimilarity(a: number[], b: number[]): number {
  if (a.length !== b.length || !a.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** `A`, `B`, … `Z`, then `S27`, … */
export const neutralLabel = (index: number) => (index < 26 ? String.fromCharCode(65 + index) : `S${index + 1}`);

/** Labels for speakers in the order they first speak, by voiceprint when one matches. */
export function labelSpeakers<K>(speakers: { key: K; embedding: number[] }[], voiceprint: number[] | null, fallback: (index: number) => string = neutralLabel) {
  const labels = new Map<K, string>();
  const scored = voiceprint ? speakers.map((s) => ({ key: s.key, similarity: cosineSimilarity(s.embedding, voiceprint) })) : [];
  const best = scored.sort((a, b) => b.similarity - a.similarity)[0];
  if (!best || best.similarity < REP_SIMILARITY) {
    speakers.forEach((s, i) => labels.set(s.key, fallback(i)));
    return { labels, repMatch: null };
  }
  let customers = 0;
  for (const s of speakers) labels.set(s.key, s.key === best.key ? 'rep' : ++customers === 1 ? 'customer' : `customer_${customers}`);
  return { labels, repMatch: { speaker: 'rep', similarity: Math.round(best.similarity * 1000) / 1000 } };
}
