import { useId, useState } from 'react';
import { CalendarRange } from 'lucide-react';
import { Button } from '../../../components/ui';
import { RANGE_PRESETS, type DashboardRangeState } from '../dashboard-range';
import type { SeriesBucket } from '../dashboard.types';

const fieldClass =
  'h-10 rounded-control border border-line bg-surface-2 px-3 text-body text-text focus-visible:outline-2 focus-visible:outline-accent';

/** One end of the custom range: a labelled date input, bounded by the other end once that is set. */
function DayField({
  id,
  label,
  value,
  min,
  max,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-meta text-muted" htmlFor={id}>
      {label}
      <input
        id={id}
        type="date"
        className={fieldClass}
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

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
        <DayField id={`${id}-from`} label="From" value={from} max={to} onChange={setFrom} />
        <DayField id={`${id}-to`} label="To" value={to} min={from} onChange={setTo} />
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
