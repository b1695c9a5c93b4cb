import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANONYMISED, anonymisePayload } from './personal-data';

const account = { id: '7f2c1a52-9d1e-4c7b-8a55-3e0d6b9f1a20', email: 'ann.lee@example.com' };

describe('anonymisePayload', () => {
  it("drops personal fields whole and replaces the account's id and e-mail anywhere, keeping the rest", () => {
    const payload = {
      id: 'evt_1',
      data: {
        object: {
          id: 'pi_1',
          amount: 1299,
          currency: 'usd',
          created: 1_750_000_000,
          receipt_email: 'Ann.Lee@Example.com',
          billing_details: { name: 'Ann Lee', address: { city: 'Porto' } },
          metadata: { user_id: account.id, order_id: 'o-1' },
          description: `Song for ANN.LEE@EXAMPLE.COM (${account.id})`,
          charges: [{ id: 'ch_1', billing_details: { email: account.email } }],
        },
      },
      payer: { email_address: account.email, name: { given_name: 'Ann' } },
    };
    expect(anonymisePayload(payload, account)).toEqual({
      id: 'evt_1',
      data: {
        object: {
          id: 'pi_1',
          amount: 1299,
          currency: 'usd',
          created: 1_750_000_000,
          receipt_email: null,
          billing_details: null,
          metadata: { user_id: ANONYMISED, order_id: 'o-1' },
          description: `Song for ${ANONYMISED} (${ANONYMISED})`,
          charges: [{ id: 'ch_1', billing_details: null }],
        },
      },
      payer: null,
    });
  });

  it('leaves no trace of the id or e-mail in any JSON, and touches nothing else (property)', () => {
    const secret = fc.constantFrom(account.id, account.email, account.email.toUpperCase());
    const text = fc.oneof(
      fc.string(),
      fc.tuple(fc.string(), secret, fc.string()).map((parts) => parts.join('')),
    );
    const json = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom('id', 'metadata', 'note', 'amount', 'items'), tie('node'), {
          maxKeys: 4,
        }),
      ),
    })).node;
    fc.assert(
      fc.property(json, (value) => {
        const out = JSON.stringify(anonymisePayload(value, account)).toLowerCase();
        expect(out).not.toContain(account.id);
        expect(out).not.toContain(account.email);
        // Without the account's data in it, a payload comes back as it was.
        const clean = JSON.stringify(value).toLowerCase();
        if (!clean.includes(account.id) && !clean.includes(account.email)) {
          expect(anonymisePayload(value, account)).toEqual(value);
        }
      }),
    );
  });
});
