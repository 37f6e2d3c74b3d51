import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Sample {
  /** The sample's own name: `x_bucket`, `x_sum`, `x_count` for a histogram `x`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Each family's declared type, lower case (`counter`, `gauge`, `histogram`…). */
  types: Map<string, string>;
  samples: Sample[];
  /** The samples named `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
}

/**
 * Reads a scrape with parse-prometheus-text-format, which rejects any malformed line. Its grouping
 * of a histogram's lines keeps only the last label set, so the samples are read a second time with
 * every family marked untyped: then each line is one sample with all its labels.
 */
export function parseScrape(text: string): Scrape {
  const types = new Map(
    parsePrometheusTextFormat(text).map((f) => [f.name, f.type.toLowerCase()] as const),
  );
  const untyped = text.replace(/^# TYPE (\S+) \S+$/gm, '# TYPE $1 untyped');
  const samples = parsePrometheusTextFormat(untyped).flatMap((family) =>
    family.metrics.map((m) => ({
      name: family.name,
      labels: m.labels ?? {},
      value: Number(m.value),
    })),
  );
  return {
    types,
    samples,
    find: (name, labels = {}) =>
      samples.filter(
        (s) =>
          s.name === name &&
          Object.entries(labels).every(([key, value]) => s.labels[key] === value),
      ),
  };
}
