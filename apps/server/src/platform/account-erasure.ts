/** The account being deleted, as the modules that hold its data elsewhere need it. */
export interface ErasedAccount {
  id: string;
  email: string;
}

/** One module's part of forgetting an account: it throws when it cannot (the account is then kept). */
export type ErasureStep = (account: ErasedAccount) => Promise<void>;

/**
 * What deleting an account must also remove outside its own rows (which cascade): its customer at a payment
 * gateway, its id and e-mail in stored gateway payloads, its mail in the development outbox. Each module that
 * keeps such data registers a step; the account module runs them all before it deletes the account, so a step
 * that fails (a gateway that cannot be reached) leaves the account as it was, to be deleted again.
 */
export class AccountErasure {
  private readonly steps: Array<{ name: string; step: ErasureStep }> = [];

  register(name: string, step: ErasureStep): void {
    this.steps.push({ name, step });
  }

  async erase(account: ErasedAccount): Promise<void> {
    for (const { step } of this.steps) await step(account);
  }
}
