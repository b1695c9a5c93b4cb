/**
 * An object's states and the moves between them, as a provider allows them. `move` changes the status or calls
 * `refuse` (which throws the provider's own error) when the provider would refuse the move.
 */
export class Lifecycle<S extends string> {
  constructor(private readonly moves: Record<S, readonly S[]>) {}

  can(from: S, to: S): boolean {
    return this.moves[from]?.includes(to) ?? false;
  }

  move<T extends Record<string, unknown>>(object: T, to: S, refuse: (from: S) => never): T {
    const from = object.status as S;
    if (!this.can(from, to)) refuse(from);
    (object as Record<string, unknown>).status = to;
    return object;
  }
}
