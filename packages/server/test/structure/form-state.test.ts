import { describe, expect, it } from 'vitest';
import { readSource } from './source-files';

/**
 * Issue 41 item 6: the shared forms keep their fields' values in react-hook-form (with the shared
 * schema's resolver), not in a `useState` per field. What a form may still keep in React's state
 * is what is not a field: whether it is open, what the server answered. Each such state is listed
 * here by name with its reason; a new `useState` in one of these forms fails until it is moved
 * into the form or listed.
 */
const UI_STATE: Record<string, Record<string, string>> = {
  'packages/web/src/features/ratings/rate-exchange-form.tsx': {},
  'packages/web/src/components/meetup-panel.tsx': {
    open: 'whether the suggestion form is shown',
  },
  // The dialog around it (report-dialog.tsx) keeps only whether it is open and the confirmation.
  'packages/web/src/components/report-dialog-form.tsx': {},
  'packages/web/src/features/my-courses/add-courses-form.tsx': {
    failure: "the server's refusal of the last add, shown under the field",
  },
};

/** `const [name, setName] = useState…` and `const [name] = useState…`: the state's name. */
const STATE = /const \[\s*(\w+)\s*(?:,\s*\w+\s*)?\]\s*=\s*(?:React\.)?useState\b/g;

/** A `useState` written any other way (not destructured): its name cannot be checked. */
const ANY_USE_STATE = /\buseState\s*[<(]/g;

describe('the shared forms', () => {
  for (const [file, allowed] of Object.entries(UI_STATE)) {
    it(`${file.split('/').at(-1)} keeps its fields in react-hook-form, and in useState only UI state`, () => {
      const source = readSource(file);
      expect(source, 'the form uses react-hook-form').toMatch(/\buseForm\s*[<(]/);
      expect(source, 'with the shared schema as its resolver').toMatch(/resolver/);
      const names = [...source.matchAll(STATE)].map((match) => match[1]!);
      expect(source.match(ANY_USE_STATE)?.length ?? 0, 'every useState is destructured').toBe(
        names.length,
      );
      expect(names.sort()).toEqual(Object.keys(allowed).sort());
    });
  }
});
