import { parse } from 'csv-parse/sync';

/** A row of a CSV file and the line it ends on (a quoted value may span lines). */
export type CsvRecords = Array<{ record: string[]; info: { lines: number } }>;

/**
 * The rows of a CSV file an operator gives (a registrar's export: a byte-order mark, quotes and
 * commas in titles, blank lines, rows of other lengths for the caller to name), each trimmed, up to
 * `maxRows` rows when given. Throws csv-parse's error, whose `lines` says where, when it is no CSV.
 */
export function parseCsvRecords(csv: string, maxRows?: number): CsvRecords {
  return parse(csv.replace(/^\uFEFF/, ''), {
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    max_record_size: 10_000,
    ...(maxRows === undefined ? {} : { to: maxRows }),
  }) as unknown as CsvRecords;
}
