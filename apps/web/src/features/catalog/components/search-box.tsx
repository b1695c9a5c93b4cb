import { useEffect, useId, useState } from 'react';
import { Search, X } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { IconButton, cx } from '../../../components/ui';

const DEBOUNCE_MS = 300;

/**
 * A search kept in the address (`?q=`: shareable, back/forward). Typing updates it after a short pause, submitting
 * at once; each change replaces the other parameters (back to page 1).
 */
export function useAddressSearch() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q')?.trim() ?? '';
  const [text, setText] = useState(query);

  useEffect(() => {
    const next = text.trim();
    if (next === query) return;
    const timer = window.setTimeout(() => {
      setParams(next ? { q: next } : {}, { replace: true });
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, query, setParams]);

  return {
    query,
    text,
    setText,
    /** Asks for `next` now (an empty one clears the search). */
    commit: (next: string) => setParams(next ? { q: next } : {}, { replace: true }),
  };
}

const SIZES = {
  /** A filter above a list, its label for screen readers only. */
  md: {
    form: 'mb-8 max-w-md',
    label: 'sr-only',
    icon: 18,
    iconClass: 'left-3.5',
    input: 'h-11 pl-10 pr-11 text-body',
    clear: 'right-1.5',
  },
  /** The page's main field, its label shown. */
  lg: {
    form: 'mb-10 max-w-2xl',
    label: 'mb-2 block text-body font-medium',
    icon: 20,
    iconClass: 'left-4',
    input: 'h-12 pl-12 pr-12 text-h4',
    clear: 'right-2',
  },
};

/** The search form of the search and artists pages: a labelled search input with a clear button. */
export function SearchBox({
  search,
  label,
  placeholder,
  clearLabel,
  size,
  formLabel,
}: {
  search: ReturnType<typeof useAddressSearch>;
  label: string;
  placeholder: string;
  clearLabel: string;
  size: keyof typeof SIZES;
  formLabel?: string;
}) {
  const inputId = useId();
  const look = SIZES[size];
  return (
    <form
      role="search"
      aria-label={formLabel}
      className={look.form}
      onSubmit={(event) => {
        event.preventDefault();
        search.commit(search.text.trim());
      }}
    >
      <label htmlFor={inputId} className={look.label}>
        {label}
      </label>
      <div className="relative">
        <Search
          size={look.icon}
          strokeWidth={1.75}
          aria-hidden="true"
          className={cx('pointer-events-none absolute top-1/2 -translate-y-1/2 text-muted', look.iconClass)}
        />
        <input
          id={inputId}
          type="search"
          value={search.text}
          onChange={(event) => search.setText(event.target.value)}
          placeholder={placeholder}
          autoComplete="off"
          enterKeyHint="search"
          className={cx(
            'w-full rounded-pill border border-line bg-surface-2 text-text placeholder:text-muted/70 hover:border-muted/60 [&::-webkit-search-cancel-button]:hidden',
            look.input,
          )}
        />
        {search.text ? (
          <IconButton
            label={clearLabel}
            size="sm"
            className={cx('absolute top-1/2 -translate-y-1/2', look.clear)}
            onClick={() => {
              search.setText('');
              search.commit('');
            }}
          >
            <X size={16} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
        ) : null}
      </div>
    </form>
  );
}
