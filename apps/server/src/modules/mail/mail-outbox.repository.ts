import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export interface OutboxRow {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: Date;
}

export class MailOutboxRepository {
  constructor(private readonly db: AppDb) {}

  async insert(mail: { to: string; subject: string; text: string }): Promise<OutboxRow> {
    const [row] = await this.db.insert(mailOutbox).values(mail).returning();
    return row!;
  }

  /** Mail addressed to a deleted account is personal data too. Returns the ids of the rows deleted. */
  async deleteForRecipient(to: string): Promise<string[]> {
    const rows = await this.db
      .delete(mailOutbox)
      .where(eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()))
      .returning({ id: mailOutbox.id });
    return rows.map((row) => row.id);
  }
}
