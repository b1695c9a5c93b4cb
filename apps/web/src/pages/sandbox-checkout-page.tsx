import { useParams } from 'react-router';
import { SandboxCheckout } from '../features/commerce';

/** /checkout/sandbox/:orderId: the sandbox gateway's demo checkout (signed-in users). */
export default function SandboxCheckoutPage() {
  const { orderId = '' } = useParams();
  return <SandboxCheckout key={orderId} orderId={orderId} />;
}
