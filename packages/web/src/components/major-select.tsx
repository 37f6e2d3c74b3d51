import { useCombobox } from 'downshift';
import { useId, useMemo, useState } from 'react';
import { useCampus } from '../lib/campus';

export interface MajorSelectProps {
  id?: string;
  label: string;
  /** The stored value ('' for none). */
  value: string;
  onChange(value: string): void;
  error?: string;
  /** Text of the option that clears the choice. */
  emptyLabel?: string;
}

interface Option {
  label: string;
  value: string;
}

/** 'Any major' leaves the box empty, showing its placeholder. */
const textOf = (option: Option | null | undefined) => (option?.value ? option.label : '');

/** A searchable dropdown over the campus majors (downshift's WAI-ARIA combobox with a listbox popup). */
export function MajorSelect({
  id,
  label,
  value,
  onChange,
  error,
  emptyLabel = 'Any major',
}: MajorSelectProps) {
  const { findMajors, majorLabel } = useCampus();
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  const selectedLabel = value ? (majorLabel(value) ?? value) : '';

  // What the student typed since opening; null shows the chosen major and every option.
  const [query, setQuery] = useState<string | null>(null);
  const options = useMemo<Option[]>(() => {
    // Abbreviations and short names find what students mean ('CS', 'comp sci', 'econ').
    return [{ label: emptyLabel, value: '' }, ...findMajors(query ?? '')];
  }, [query, emptyLabel, findMajors]);
  const selected = options.find((o) => o.value === value) ?? { label: selectedLabel, value };

  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps } =
    useCombobox<Option>({
      items: options,
      inputId,
      itemToString: textOf,
      itemToKey: (option) => option?.value,
      selectedItem: selected,
      // The box's text is downshift's own (a controlled text drops keys typed fast); what was typed
      // filters the options until the list closes.
      initialInputValue: selectedLabel,
      onInputValueChange: ({ inputValue, type }) => {
        if (type === useCombobox.stateChangeTypes.InputChange) setQuery(inputValue);
      },
      onSelectedItemChange: ({ selectedItem }) => {
        if (selectedItem) onChange(selectedItem.value);
      },
      onIsOpenChange: ({ isOpen: opened }) => {
        if (!opened) setQuery(null);
      },
      stateReducer: (state, { type, changes }) => {
        // Closing shows the chosen major again, whatever was typed.
        if (state.isOpen && changes.isOpen === false) {
          const chosen =
            type === useCombobox.stateChangeTypes.InputBlur
              ? state.selectedItem
              : changes.selectedItem;
          return { ...changes, selectedItem: chosen, inputValue: textOf(chosen) };
        }
        switch (type) {
          case useCombobox.stateChangeTypes.InputChange:
            // Typing highlights the first major found, not the 'Any major' row above it.
            return {
              ...changes,
              highlightedIndex:
                changes.inputValue?.trim() && findMajors(changes.inputValue).length ? 1 : 0,
            };
          case useCombobox.stateChangeTypes.InputBlur:
            // Leaving the box (Tab, a tap elsewhere) chooses nothing: only Enter or a click does.
            return {
              ...changes,
              selectedItem: state.selectedItem,
              inputValue: textOf(state.selectedItem),
            };
          default:
            return changes;
        }
      },
    });

  return (
    <div className="relative">
      <label {...getLabelProps()} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <input
        {...getInputProps({
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? errorId : undefined,
        })}
        type="text"
        placeholder={emptyLabel}
        className="block w-full rounded-lg border border-slate-500 bg-white py-2.5 pr-9 pl-3 text-base text-slate-900 shadow-sm placeholder:text-slate-600 aria-invalid:border-red-600"
      />
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute right-3 bottom-3.5 size-4 text-slate-600"
      >
        <path d="M5 7l5 6 5-6z" fill="currentColor" />
      </svg>
      <ul
        {...getMenuProps()}
        hidden={!isOpen}
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-slate-300 bg-white py-1 shadow-lg"
      >
        {isOpen
          ? options.map((option, index) => (
              <li
                key={option.value || '__empty'}
                {...getItemProps({ item: option, index })}
                className={`cursor-pointer px-3 py-2 text-sm ${
                  index === highlightedIndex ? 'bg-brand-100 text-brand-900' : 'text-slate-900'
                } ${option.value === value ? 'font-semibold' : ''}`}
              >
                {option.label}
              </li>
            ))
          : null}
        {isOpen && options.length === 1 ? (
          <li role="presentation" className="px-3 py-2 text-sm text-slate-600">
            No major matches
          </li>
        ) : null}
      </ul>
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
