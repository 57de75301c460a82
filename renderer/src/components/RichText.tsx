import { createElement, type ReactNode } from 'react';

// Content written by admins (company introduction, course text) arrives as HTML or as plain text with light
// markdown. HTML is never injected: it is parsed into an inert document and rebuilt as React elements from an
// allow-list, so scripts, event handlers, styles and foreign URLs cannot get through.

const KEPT_TAGS = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr', 'span', 'div', 'a']);
const DROPPED_TAGS = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math', 'form', 'input', 'button', 'textarea', 'select', 'link', 'meta', 'title', 'head']);
/** Top-level headings would compete with the page title. */
const RENAMED: Record<string, string> = { h1: 'h2', h5: 'h4', h6: 'h4' };

const safeHref = (href: string | null) => (href && /^https?:\/\//i.test(href.trim()) ? href.trim() : undefined);

function fromDom(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED_TAGS.has(tag)) return null;
  const children = Array.from(element.childNodes, (child, i) => fromDom(child, `${key}.${i}`));
  const name = RENAMED[tag] ?? tag;
  if (!KEPT_TAGS.has(name)) return children;
  if (name === 'br' || name === 'hr') return createElement(name, { key });
  if (name === 'a') {
    const href = safeHref(element.getAttribute('href'));
    return href ? createElement('a', { key, href, target: '_blank', rel: 'noreferrer' }, children) : createElement('span', { key }, children);
  }
  return createElement(name, { key }, children);
}

/** Plain text: blank lines separate paragraphs; `#` lines are headings; `-`/`*` lines make lists. */
function fromText(text: string): ReactNode[] {
  const blocks: ReactNode[] = [];
  let list: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(<p key={blocks.length}>{paragraph.join(' ')}</p>);
    if (list.length) blocks.push(<ul key={blocks.length}>{list.map((item, i) => <li key={i}>{item}</li>)}</ul>);
    paragraph = [];
    list = [];
  };
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    const heading = /^(#{1,4})\s+(.*)$/.exec(trimmed);
    const item = /^[-*]\s+(.*)$/.exec(trimmed);
    if (!trimmed) flush();
    else if (heading) {
      flush();
      blocks.push(createElement(heading[1]!.length <= 2 ? 'h2' : 'h3', { key: blocks.length }, heading[2]));
    } else if (item) {
      if (paragraph.length) flush();
      list.push(item[1]!);
    } else {
      if (list.length) flush();
      paragraph.push(trimmed);
    }
  }
  flush();
  return blocks;
}

const looksLikeHtml = (content: string) => /<([a-z][a-z0-9]*)(\s[^>]*)?>/i.test(content);

export function RichText({ content }: { content: string }) {
  if (!content.trim()) return null;
  if (!looksLikeHtml(content)) return <div className="rich-text">{fromText(content)}</div>;
  const doc = new DOMParser().parseFromString(content, 'text/html');
  return <div className="rich-text">{Array.from(doc.body.childNodes, (node, i) => fromDom(node, String(i)))}</div>;
}
