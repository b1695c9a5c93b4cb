import { useId, useState } from 'react';
import { CalendarRange } from 'lucide-react';
import { Button } from '../../../components/ui';
import { RANGE_PRESETS, type DashboardRangeState } from '../dashboard-range';
import type { SeriesBucket } from '../dashboard.types';

const fieldClass =
  'h-10 rounded-control border border-line bg-surface-2 px-3 text-body text-text focus-visible:outline-2 focus-visible:outline-accent';

/** Presets (7, 30, 90 days, 12 months), a custom range of UTC days, and the chart bucket. */
export function DateRangePicker({ range }: { range: DashboardRangeState }) {
  const id = useId();
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  // The address changed (a preset, back button): the custom fields follow it.
  const [shown, setShown] = useState(`${range.from}/${range.to}`);
  if (shown !== `${range.from}/${range.to}`) {
    setShown(`${range.from}/${range.to}`);
    setFrom(range.from);
    setTo(range.to);
  }
  return (
    <div className="mb-6 flex flex-col gap-3 rounded-card border border-line bg-surface p-4 lg:flex-row lg:items-end lg:justify-between">
      <div role="group" aria-label="Date range" className="flex flex-wrap gap-2">
        {RANGE_PRESETS.map((preset) => (
          <Button
            key={preset.id}
            size="sm"
            variant={range.preset === preset.id ? 'primary' : 'secondary'}
            aria-pressed={range.preset === preset.id}
            onClick={() => range.setPreset(preset.id)}
          >
            {preset.label}
          </Button>
        ))}
      </div>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          if (from && to) range.setCustom(from, to);
        }}
      >
        <label className="flex flex-col gap-1 text-meta text-muted" htmlFor={`${id}-from`}>
          From
          <input
            id={`${id}-from`}
            type="date"
            className={fieldClass}
            value={from}
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-meta text-muted" htmlFor={`${id}-to`}>
          To
          <input
            id={`${id}-to`}
            type="date"
            className={fieldClass}
            value={to}
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
          />
        </label>
        <Button
          type="submit"
          size="sm"
          variant={range.preset === 'custom' ? 'primary' : 'secondary'}
          icon={<CalendarRange size={16} strokeWidth={1.75} aria-hidden="true" />}
        >
          Apply
        </Button>
        <label className="flex flex-col gap-1 text-meta text-muted" htmlFor={`${id}-bucket`}>
          Group by
          <select
            id={`${id}-bucket`}
            className={fieldClass}
            value={range.bucket}
            onChange={(event) => range.setBucket(event.target.value as SeriesBucket)}
          >
            <option value="day">Day</option>
            <option value="week">Week</option>
            <option value="month">Month</option>
          </select>
        </label>
      </form>
    </div>
  );
}
