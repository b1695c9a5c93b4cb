import { useState } from 'react';
import { Undo2 } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { Button, ConfirmDialog } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { formatMoney } from '../../../lib/format';
import { useRefundOrderMutation } from '../dashboard.api';
import type { Transaction } from '../dashboard.types';

export const REFUND_MESSAGES = {
  failed: 'The refund could not be made. Please try again.',
  done: 'Refunded',
} as const;

const GATEWAY_NAMES: Record<string, string> = {
  stripe: 'Stripe',
  razorpay: 'Razorpay',
  paypal: 'PayPal',
  sandbox: 'the demo gateway',
};

/**
 * Refund of one paid transaction (admins): asks first, naming the amount, the buyer and what they lose, then refunds
 * through the order's gateway. The dashboards refresh from the server's answer.
 */
export function RefundAction({ transaction, itemText }: { transaction: Transaction; itemText: string }) {
  const [open, setOpen] = useState(false);
  const [refund, { isLoading }] = useRefundOrderMutation();
  const amount =
    typeof transaction.amount === 'number'
      ? formatMoney(transaction.amount, transaction.currency ?? 'USD')
      : '';
  const buyer = transaction.user?.name ?? transaction.userName ?? 'the buyer';
  const gateway = GATEWAY_NAMES[transaction.gateway ?? ''] ?? 'its gateway';
  const loses =
    transaction.itemType === 'subscription'
      ? 'The period this payment paid for is taken back, and the subscription stops renewing.'
      : 'The purchase is revoked: it no longer plays for them.';

  async function confirm() {
    const result = await refund({ orderId: transaction._id });
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, REFUND_MESSAGES.failed));
      return;
    }
    setOpen(false);
    toast.success(result.data?.message ?? REFUND_MESSAGES.done);
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        aria-label={`Refund ${itemText}${amount ? `, ${amount}` : ''} to ${buyer}`}
        icon={<Undo2 size={16} strokeWidth={1.75} aria-hidden="true" />}
        onClick={() => setOpen(true)}
      >
        Refund
      </Button>
      <ConfirmDialog
        open={open}
        title={`Refund ${amount || 'this payment'} to ${buyer}?`}
        confirmLabel="Refund"
        busy={isLoading}
        onCancel={() => setOpen(false)}
        onConfirm={() => void confirm()}
      >
        {itemText}. The money goes back through {gateway}. {loses}
      </ConfirmDialog>
    </>
  );
}
