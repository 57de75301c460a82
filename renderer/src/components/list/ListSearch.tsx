import { Flex, Input } from 'antd';

/** A list's search box (a `search` landmark): Enter or the button sets the filter, the clear icon empties it. */
export function ListSearch({ label, placeholder, value, onSearch }: { label: string; placeholder?: string; value: string; onSearch(q: string): void }) {
  return (
    <Flex className="section" role="search" aria-label={label}>
      <Input.Search className="catalog-search" aria-label={label} placeholder={placeholder} allowClear defaultValue={value} onSearch={(q) => onSearch(q.trim())} />
    </Flex>
  );
}
