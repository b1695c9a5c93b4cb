import type { Clock } from './clock';
import type { Obj, Store } from './store';

/** What every provider's emulator keeps: its address, its objects and the shared clock, with lookups. */
export abstract class ProviderState {
  baseUrl = '';

  constructor(
    readonly store: Store,
    readonly clock: Clock,
  ) {}

  /** The provider's own answer for an unknown id (thrown). */
  protected abstract missing(collection: string, id: string): never;

  get(collection: string, id: string): Obj {
    return this.store.get<Obj>(collection, id) ?? this.missing(collection, id);
  }

  find(collection: string, id: string | null | undefined): Obj | undefined {
    return id ? this.store.get<Obj>(collection, id) : undefined;
  }

  save<T extends Obj>(collection: string, value: T): T {
    return this.store.save(collection, value);
  }
}
