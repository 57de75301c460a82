// Where product names and codes occur in a text, for every active product at once: one pass over the text along a
// trie of the names (many names share a prefix, 恒信稳盈一号/恒信稳盈二号), instead of one scan per name. A
// Latin name matches only as a whole word ("SIF-1" is not in "SIF-17"), and where names overlap the longest wins
// ("Steady Income Fund Plus" is not also "Steady Income Fund").
export interface NameHit {
  /** The owner of the name (a product id). */
  id: number;
  at: number;
  length: number;
}

const WORD_CHAR = /[A-Za-z0-9]/;

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Owners of the name ending here. */
  ids: number[];
}

const node = (): TrieNode => ({ next: new Map(), ids: [] });

export class NameIndex {
  private readonly root = node();

  constructor(entries: { id: number; names: (string | null)[] }[]) {
    for (const { id, names } of entries) {
      for (const raw of names) {
        const name = raw?.trim().toLowerCase();
        if (!name || name.length < 2) continue;
        let at = this.root;
        for (const ch of name) {
          let child = at.next.get(ch);
          if (!child) at.next.set(ch, (child = node()));
          at = child;
        }
        if (!at.ids.includes(id)) at.ids.push(id);
      }
    }
  }

  /** Every name found in the text, left to right, overlaps resolved to the longest. */
  find(text: string): NameHit[] {
    const lower = text.toLowerCase();
    const hits: NameHit[] = [];
    for (let at = 0; at < lower.length - 1; ) {
      const before = lower[at - 1];
      let best: NameHit | undefined;
      // Names starting with a letter or digit start a word.
      if (!(before && WORD_CHAR.test(before) && WORD_CHAR.test(lower[at]!))) {
        let current: TrieNode | undefined = this.root;
        for (let end = at; end < lower.length && current; end++) {
          current = current.next.get(lower[end]!);
          const after = lower[end + 1];
          if (current?.ids.length && !(after && WORD_CHAR.test(lower[end]!) && WORD_CHAR.test(after))) best = { id: current.ids[0]!, at, length: end - at + 1 };
        }
      }
      if (best) {
        hits.push(best);
        at += best.length;
      } else at++;
    }
    return hits;
  }

  /** Which products the text names: `own` (the given id) and whether it names any other. */
  mentions(text: string, own: number): { own: boolean; other: boolean } {
    const hits = this.find(text);
    return { own: hits.some((h) => h.id === own), other: hits.some((h) => h.id !== own) };
  }
}
