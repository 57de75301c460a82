import type { Key, ReactNode } from 'react';

/**
 * A short list of items as a plain <ul> (antd 6.6 deprecates its List and logs about it; Listy is a virtual list
 * for long ones). Long lists belong in a server-paged DataTable.
 */
export function SimpleList<T>({ items, rowKey, render, label }: { items: T[]; rowKey(item: T): Key; render(item: T): ReactNode; label?: string }) {
  return (
    <ul className="simple-list" aria-label={label}>
      {items.map((item) => (
        <li key={rowKey(item)}>{render(item)}</li>
      ))}
    </ul>
  );
}
