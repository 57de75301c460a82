/** A label/value list, e.g. a product's key facts. */
export function Facts({ facts }: { facts: [label: string, value: string][] }) {
  return (
    <dl className="facts">
      {facts.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
