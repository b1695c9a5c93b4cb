import {
  BarChart3,
  CreditCard,
  Headphones,
  HeartHandshake,
  Library,
  Lock,
  ShieldCheck,
  ShoppingBag,
  Sparkles,
  Tags,
  Upload,
  Wallet,
} from 'lucide-react';

/** A landing point: an icon, a short title and a sentence. */
type Point = { icon: typeof Headphones; title: string; body: string };

const features: Point[] = [
  {
    icon: Headphones,
    title: 'Play free songs in full',
    body: 'Artists pick songs anyone signed in can play from start to finish. Everything else has a 30-second preview, on your phone or your desktop.',
  },
  {
    icon: ShoppingBag,
    title: 'Buy songs and albums to keep',
    body: 'One purchase, no expiry: play it any time, and download it as MP3, or as FLAC when the artist uploaded it lossless.',
  },
  {
    icon: HeartHandshake,
    title: 'Subscribe to the artists you love',
    body: 'Unlock an artist’s subscriber songs for 1, 3, 6 or 12 months, and cancel whenever you like.',
  },
];

const steps: Point[] = [
  {
    icon: Sparkles,
    title: 'Create your free account',
    body: 'With an e-mail address and a password, or with Google where the sign-in page offers it.',
  },
  {
    icon: Tags,
    title: 'Pick your genres',
    body: 'Tell us what you like and your home screen fills with songs that match.',
  },
  {
    icon: Library,
    title: 'Play, like and collect',
    body: 'Like songs as you go, buy what you want to keep, back who you believe in.',
  },
];

const artistPoints: Point[] = [
  {
    icon: Upload,
    title: 'Release on your terms',
    body: 'Upload songs and albums, set prices, choose what needs a subscription and what is free to stream.',
  },
  {
    icon: BarChart3,
    title: 'See what is working',
    body: 'Transactions, purchases per song and album, plays, and active subscribers.',
  },
  {
    icon: Wallet,
    title: 'Know your revenue',
    body: 'Song, album and subscription revenue, broken down in one dashboard.',
  },
];

const trust: Point[] = [
  {
    icon: CreditCard,
    title: 'Secure checkout',
    body: 'Payments run through Stripe, Razorpay and PayPal. We never see your card number.',
  },
  {
    icon: Lock,
    title: 'Protected streams',
    body: 'Audio is sent encrypted, and its key goes only to listeners who may play it.',
  },
  {
    icon: ShieldCheck,
    title: 'Your data stays yours',
    body: 'No ad tracking, no data sales, and you can delete your account at any time.',
  },
];

/** The lists of icon points: their points, and how the list, an item, its icon and its title look. */
const pointLists = {
  artists: {
    points: artistPoints,
    list: 'grid gap-4 sm:grid-cols-3 lg:grid-cols-1',
    item: 'flex gap-4 rounded-card border border-line bg-surface p-5',
    icon: 'mt-0.5 shrink-0 text-accent-2',
    title: 'text-h4 font-semibold',
  },
  trust: {
    points: trust,
    list: 'grid gap-8 md:grid-cols-3',
    item: 'flex gap-4',
    icon: 'mt-0.5 shrink-0 text-ok',
    title: 'text-body font-semibold',
  },
};

/** What artists get (`artists`) or why payments and data are safe (`trust`): each point's icon beside its text. */
export function IconPointList({ of }: { of: keyof typeof pointLists }) {
  const { points, ...classes } = pointLists[of];
  return (
    <ul className={classes.list}>
      {points.map(({ icon: Icon, title, body }) => (
        <li key={title} className={classes.item}>
          <Icon size={22} strokeWidth={1.75} aria-hidden="true" className={classes.icon} />
          <div>
            <h3 className={classes.title}>{title}</h3>
            <p className="mt-1 text-body text-muted">{body}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** What the app offers: one card a feature. */
export function FeatureList() {
  return (
    <ul className="grid gap-4 md:grid-cols-3 md:gap-6">
      {features.map(({ icon: Icon, title, body }) => (
        <li
          key={title}
          className="rounded-card border border-line bg-surface p-6 transition-colors duration-150 hover:border-muted/40"
        >
          <div className="mb-4 flex size-11 items-center justify-center rounded-card bg-accent/15 text-accent">
            <Icon size={22} strokeWidth={1.75} aria-hidden="true" />
          </div>
          <h3 className="text-h4 font-semibold">{title}</h3>
          <p className="mt-2 text-body text-muted">{body}</p>
        </li>
      ))}
    </ul>
  );
}

/** How to get started, step by step. */
export function StepList() {
  return (
    <ol className="grid gap-8 md:grid-cols-3 md:gap-6">
      {steps.map(({ icon: Icon, title, body }, index) => (
        <li key={title} className="relative flex gap-4 md:flex-col">
          <div className="flex size-12 shrink-0 items-center justify-center rounded-pill border border-line bg-bg text-accent">
            <Icon size={22} strokeWidth={1.75} aria-hidden="true" />
          </div>
          <div>
            <p className="text-meta font-semibold text-muted tabular-nums">Step {index + 1}</p>
            <h3 className="mt-1 text-h4 font-semibold">{title}</h3>
            <p className="mt-1 text-body text-muted">{body}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}
