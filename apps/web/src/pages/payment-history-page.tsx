import { ReceiptText } from 'lucide-react';
import { SiteFooter } from '../app/layout/site-footer';
import { SiteHeader } from '../app/layout/site-header';
import { SkipLink } from '../app/layout/skip-link';
import { BackLink, LinkEmptyState, PageHeader, QueryErrorState, Skeleton } from '../components/ui';
import { useGetPaymentHistoryQuery } from '../features/commerce';
import { PaymentHistoryList } from '../features/library';

/** Outside the main layout (SPEC section 2): a focused page with its own header. */
export default function PaymentHistoryPage() {
  const { data, isLoading, isError, error, refetch } = useGetPaymentHistoryQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  return (
    <div className="flex min-h-dvh flex-col">
      <title>Payment history · Backbeat</title>
      <SkipLink />
      <SiteHeader>
        <BackLink to="/purchases">Purchases</BackLink>
      </SiteHeader>
      <main id="main" tabIndex={-1} className="container-page flex-1 py-8 outline-none md:py-12">
        <div className="mx-auto max-w-5xl">
          <PageHeader
            eyebrow="Account"
            title="Payment history"
            description="Every purchase, subscription renewal and refund on your account, each with its receipt. Card details stay with the payment provider."
          />
          {isLoading ? (
            <div className="flex flex-col gap-2" aria-hidden="true">
              {Array.from({ length: 6 }, (_, index) => (
                <Skeleton key={index} className="h-14" />
              ))}
            </div>
          ) : isError ? (
            <QueryErrorState
              error={error}
              fallback="Failed to fetch purchases"
              onRetry={() => void refetch()}
            />
          ) : !data || data.history.length === 0 ? (
            <LinkEmptyState
              icon={ReceiptText}
              title="No payments yet"
              description="When you buy a song or album, or subscribe to an artist, the payment shows up here."
              to="/home"
              linkLabel="Back to music"
            />
          ) : (
            <PaymentHistoryList entries={data.history} />
          )}
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
