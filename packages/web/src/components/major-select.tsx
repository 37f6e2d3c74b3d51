import { findMajors, majorLabel } from '@campus-books/common/campus';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';

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

/** A searchable dropdown over the campus majors (WAI-ARIA combobox with a listbox popup). */
export function MajorSelect({
  id,
  label,
  value,
  onChange,
  error,
  emptyLabel = 'Any major',
}: MajorSelectProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const listboxId = `${inputId}-listbox`;
  const errorId = `${inputId}-error`;
  const selectedLabel = value ? (majorLabel(value) ?? value) : '';

  const [query, setQuery] = useState<string | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);

  const options = useMemo<Option[]>(() => {
    // Abbreviations and short names find what students mean ('CS', 'comp sci', 'econ').
    return [{ label: emptyLabel, value: '' }, ...findMajors(query ?? '')];
  }, [query, emptyLabel]);

  function open(
    index = Math.max(
      0,
      options.findIndex((o) => o.value === value),
    ),
  ) {
    setIsOpen(true);
    setActiveIndex(index);
    scrollIntoView(index);
  }

  function close() {
    setIsOpen(false);
    setQuery(null);
  }

  function choose(option: Option) {
    onChange(option.value);
    close();
  }

  function scrollIntoView(index: number) {
    requestAnimationFrame(() => {
      listRef.current?.children[index]?.scrollIntoView({ block: 'nearest' });
    });
  }

  function move(delta: number) {
    if (!isOpen) return open();
    const next = (activeIndex + delta + options.length) % options.length;
    setActiveIndex(next);
    scrollIntoView(next);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (event.altKey) open();
        else move(1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        move(-1);
        break;
      case 'Home':
      case 'End':
        if (isOpen) {
          event.preventDefault();
          const index = event.key === 'Home' ? 0 : options.length - 1;
          setActiveIndex(index);
          scrollIntoView(index);
        }
        break;
      case 'Enter': {
        const option = options[activeIndex];
        if (isOpen && option) {
          event.preventDefault();
          choose(option);
        }
        break;
      }
      case 'Escape':
        if (isOpen) {
          event.preventDefault();
          close();
        }
        break;
      case 'Tab':
        close();
        break;
    }
  }

  const activeOption = isOpen ? options[activeIndex] : undefined;

  return (
    <div className="relative">
      <label htmlFor={inputId} className="mb-1 block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <input
        id={inputId}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={isOpen}
        aria-controls={listboxId}
        aria-activedescendant={activeOption ? `${listboxId}-${activeIndex}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        placeholder={emptyLabel}
        value={query ?? selectedLabel}
        onChange={(event) => {
          setQuery(event.target.value);
          setIsOpen(true);
          setActiveIndex(event.target.value.trim() ? 1 : 0);
        }}
        onClick={() => (isOpen ? close() : open())}
        onKeyDown={onKeyDown}
        onBlur={close}
        className="block w-full rounded-lg border border-slate-400 bg-white py-2.5 pr-9 pl-3 text-base text-slate-900 shadow-sm placeholder:text-slate-600 aria-invalid:border-red-600"
      />
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute right-3 bottom-3.5 size-4 text-slate-600"
      >
        <path d="M5 7l5 6 5-6z" fill="currentColor" />
      </svg>
      <ul
        ref={listRef}
        id={listboxId}
        role="listbox"
        aria-label={label}
        hidden={!isOpen}
        className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-slate-300 bg-white py-1 shadow-lg"
      >
        {options.map((option, index) => (
          <li
            key={option.value || '__empty'}
            id={`${listboxId}-${index}`}
            role="option"
            aria-selected={option.value === value}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(option)}
            onMouseMove={() => setActiveIndex(index)}
            className={`cursor-pointer px-3 py-2 text-sm ${
              index === activeIndex ? 'bg-brand-100 text-brand-900' : 'text-slate-900'
            } ${option.value === value ? 'font-semibold' : ''}`}
          >
            {option.label}
          </li>
        ))}
        {options.length === 1 ? (
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
