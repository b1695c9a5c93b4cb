import { Pause } from 'lucide-react';
import { Link } from 'react-router';
import { PublicHeaderActions } from '../app/layout/public-layout';
import { SiteFooter } from '../app/layout/site-footer';
import { SkipLink } from '../app/layout/skip-link';
import { useAppSelector } from '../app/hooks';
import { Logo, buttonClasses } from '../components/ui';
import { selectIsSignedIn } from '../features/auth';
import { FeatureList, IconPointList, StepList } from './parts/landing-points';

const covers = [
  'from-[#ff5a36] to-[#7a1f4d]',
  'from-[#ffb020] to-[#ff5a36]',
  'from-[#3b3b98] to-[#15151c]',
  'from-[#2ecc71] to-[#14532d]',
  'from-[#ff4d6d] to-[#3b0a45]',
  'from-[#6c5ce7] to-[#ff5a36]',
];

/** Decorative app preview built from CSS: no remote images, nothing for screen readers. */
function HeroPreview() {
  return (
    <div aria-hidden="true" className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="absolute -inset-10 rounded-pill bg-accent/20 blur-[100px]" />
      <div className="relative rounded-[20px] border border-line bg-surface/90 p-4 shadow-2xl shadow-black/60 sm:p-5">
        <div className="mb-4 flex items-center justify-between">
          <span className="text-meta font-semibold uppercase tracking-wider text-muted">Made for you</span>
          <span className="h-2 w-16 rounded-pill bg-surface-2" />
        </div>
        <div className="grid grid-cols-3 gap-3">
          {covers.map((gradient, index) => (
            <div key={gradient} className="flex flex-col gap-1.5">
              <div
                className={`relative aspect-square overflow-hidden rounded-card bg-gradient-to-br ${gradient}`}
              >
                <div className="absolute -bottom-4 -right-4 size-16 rounded-pill border-[6px] border-white/15" />
                {index === 1 ? (
                  <div className="absolute left-3 top-3 h-1.5 w-8 rounded-pill bg-white/40" />
                ) : null}
              </div>
              <span className="h-2 w-4/5 rounded-pill bg-surface-2" />
              <span className="h-2 w-1/2 rounded-pill bg-line" />
            </div>
          ))}
        </div>
        <div className="mt-5 flex items-center gap-3 rounded-card border border-line bg-bg/80 p-3">
          <div className={`size-12 shrink-0 rounded-control bg-gradient-to-br ${covers[0]}`} />
          <div className="min-w-0 flex-1">
            <p className="truncate text-body font-semibold">Midnight Signal</p>
            <p className="truncate text-meta text-muted">Nova Reyes</p>
            <div className="mt-2 h-1 overflow-hidden rounded-pill bg-line">
              <div className="h-full w-2/5 rounded-pill bg-accent" />
            </div>
          </div>
          <div className="flex size-10 shrink-0 items-center justify-center rounded-pill bg-accent text-bg">
            <Pause size={18} strokeWidth={2} fill="currentColor" />
          </div>
        </div>
      </div>
      <div className="absolute -bottom-6 -left-2 hidden items-center gap-2 rounded-pill border border-line bg-surface px-4 py-2 shadow-xl shadow-black/50 sm:flex">
        <span className="flex h-4 items-end gap-[3px]">
          {[0, 200, 400].map((delay) => (
            <span
              key={delay}
              className="h-full w-[3px] origin-bottom animate-equalizer rounded-pill bg-accent"
              style={{ animationDelay: `${delay - 900}ms` }}
            />
          ))}
        </span>
        <span className="text-meta font-medium">Now playing</span>
      </div>
    </div>
  );
}

export default function LandingPage() {
  const signedIn = useAppSelector(selectIsSignedIn);
  return (
    <div className="flex min-h-dvh flex-col overflow-x-clip">
      <title>Backbeat · Stream, buy and back the artists you love</title>
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-line/60 bg-bg/80 backdrop-blur-md">
        <div className="container-page flex h-16 items-center justify-between gap-4">
          <Link to="/" aria-label="Backbeat home">
            <Logo height={28} />
          </Link>
          <nav aria-label="Landing" className="hidden items-center gap-6 lg:flex">
            <a href="#features" className="text-body text-muted transition-colors hover:text-text">
              Features
            </a>
            <a href="#how-it-works" className="text-body text-muted transition-colors hover:text-text">
              How it works
            </a>
            <a href="#for-artists" className="text-body text-muted transition-colors hover:text-text">
              For artists
            </a>
            <Link to="/help" className="text-body text-muted transition-colors hover:text-text">
              Help
            </Link>
          </nav>
          <div className="flex items-center gap-2">
            <PublicHeaderActions />
          </div>
        </div>
      </header>

      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <section className="relative">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 top-0 h-[640px] bg-[radial-gradient(60%_50%_at_70%_0%,rgba(255,90,54,0.18),transparent_70%)]"
          />
          <div className="container-page relative grid items-center gap-14 py-14 md:py-20 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:py-28">
            <div className="max-w-2xl">
              <p className="mb-5 inline-flex items-center gap-2 rounded-pill border border-line bg-surface px-3 py-1 text-meta font-medium text-muted">
                <span className="size-1.5 rounded-pill bg-ok" aria-hidden="true" />
                Streaming, ownership and artist subscriptions
              </p>
              <h1 className="text-h1 font-bold tracking-tight text-balance sm:text-[52px] sm:leading-[1.05] xl:text-[64px]">
                Stream it. Own it.{' '}
                <span className="bg-gradient-to-r from-accent to-accent-2 bg-clip-text text-transparent">
                  Back the artists
                </span>{' '}
                behind it.
              </h1>
              <p className="mt-6 max-w-xl text-h4 text-muted">
                Backbeat is where listening and supporting meet. Play free songs in full and preview the rest,
                buy the songs and albums you want to keep, and subscribe to the artists you believe in.
              </p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                {signedIn ? (
                  <Link to="/home" className={buttonClasses({ size: 'lg' })}>
                    Open Backbeat
                  </Link>
                ) : (
                  <>
                    <Link to="/register" className={buttonClasses({ size: 'lg' })}>
                      Create your free account
                    </Link>
                    <Link to="/login" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
                      Sign in
                    </Link>
                  </>
                )}
              </div>
              <p className="mt-5 text-meta text-muted">
                Free to join · Free songs play in full · Cancel a subscription anytime
              </p>
            </div>
            <HeroPreview />
          </div>
        </section>

        <section
          id="features"
          aria-labelledby="features-title"
          className="scroll-mt-20 border-t border-line/60 py-16 md:py-24"
        >
          <div className="container-page">
            <div className="mb-10 max-w-2xl md:mb-14">
              <p className="mb-2 text-meta font-semibold uppercase tracking-wider text-accent">
                One app, three ways in
              </p>
              <h2 id="features-title" className="text-h2 font-bold tracking-tight text-balance md:text-h1">
                Listen freely. Keep what matters. Support who made it.
              </h2>
            </div>
            <FeatureList />
          </div>
        </section>

        <section
          id="how-it-works"
          aria-labelledby="how-title"
          className="scroll-mt-20 bg-surface/50 py-16 md:py-24"
        >
          <div className="container-page">
            <h2 id="how-title" className="mb-10 text-h2 font-bold tracking-tight md:mb-14 md:text-h1">
              Up and playing in a minute
            </h2>
            <StepList />
          </div>
        </section>

        <section id="for-artists" aria-labelledby="artists-title" className="scroll-mt-20 py-16 md:py-24">
          <div className="container-page grid gap-10 lg:grid-cols-[1fr_1.2fr] lg:gap-16">
            <div>
              <p className="mb-2 text-meta font-semibold uppercase tracking-wider text-accent-2">
                For artists
              </p>
              <h2 id="artists-title" className="text-h2 font-bold tracking-tight text-balance md:text-h1">
                Built for the people who make the music
              </h2>
              <p className="mt-4 max-w-lg text-h4 text-muted">
                Sell directly to your listeners, offer subscriber-only releases, and follow every sale as it
                happens.
              </p>
            </div>
            <IconPointList of="artists" />
          </div>
        </section>

        <section aria-labelledby="trust-title" className="border-y border-line/60 bg-surface/50 py-14">
          <div className="container-page">
            <h2 id="trust-title" className="sr-only">
              Security and privacy
            </h2>
            <IconPointList of="trust" />
          </div>
        </section>

        <section aria-labelledby="cta-title" className="py-16 md:py-24">
          <div className="container-page">
            <div className="relative overflow-hidden rounded-[20px] bg-gradient-to-br from-accent to-accent-2 px-6 py-12 text-bg md:px-12 md:py-16">
              <div
                aria-hidden="true"
                className="absolute -right-16 -top-16 size-64 rounded-pill border-[28px] border-bg/10"
              />
              <div className="relative max-w-2xl">
                <h2 id="cta-title" className="text-h2 font-bold tracking-tight text-balance md:text-h1">
                  Your next favourite song is one tap away.
                </h2>
                <p className="mt-3 text-h4 font-medium text-bg/80">
                  Join free today. Your library starts with the first like.
                </p>
                <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                  <Link
                    to={signedIn ? '/home' : '/register'}
                    className="inline-flex h-12 items-center justify-center rounded-control bg-bg px-6 text-h4 font-semibold text-text transition-colors duration-150 hover:bg-surface focus-visible:outline-bg"
                  >
                    {signedIn ? 'Open Backbeat' : 'Get started free'}
                  </Link>
                  {signedIn ? null : (
                    <Link
                      to="/login"
                      className="inline-flex h-12 items-center justify-center rounded-control border-2 border-bg/80 px-6 text-h4 font-semibold text-bg transition-colors duration-150 hover:bg-bg/10 focus-visible:outline-bg"
                    >
                      Sign in
                    </Link>
                  )}
                </div>
              </div>
            </div>
          </div>
        </section>
      </main>
      <SiteFooter homeTo={signedIn ? '/home' : '/'} />
    </div>
  );
}
