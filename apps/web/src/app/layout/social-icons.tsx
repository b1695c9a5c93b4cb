import type { ReactNode, SVGProps } from 'react';

/** Brand glyphs drawn locally (lucide has no brand icons, and no asset may come from another host). */
type IconProps = SVGProps<SVGSVGElement>;

const common = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.75,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
} as const;

/** A brand glyph in the shared frame: 24 units, stroked in the current colour. */
function brandIcon(glyph: ReactNode) {
  return function BrandIcon(props: IconProps) {
    return (
      <svg {...common} {...props}>
        {glyph}
      </svg>
    );
  };
}

export const InstagramIcon = brandIcon(
  <>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <circle cx="17.5" cy="6.5" r="0.75" fill="currentColor" stroke="none" />
  </>,
);

export const XIcon = brandIcon(<path d="M4 4l16 16M20 4L4 20" />);

export const YouTubeIcon = brandIcon(
  <>
    <rect x="2.5" y="5" width="19" height="14" rx="4" />
    <path d="M10 9.5v5l4.5-2.5z" fill="currentColor" />
  </>,
);

export const FacebookIcon = brandIcon(
  <path d="M14.5 8H16V4.5h-2.2C11.4 4.5 10 6 10 8.4V11H7.8v3.4H10V21h3.4v-6.6h2.3l.5-3.4h-2.8V8.9c0-.6.4-.9 1.1-.9z" />,
);

export const SOCIAL_LINKS = [
  { name: 'Instagram', href: 'https://www.instagram.com/backbeat', icon: InstagramIcon },
  { name: 'X', href: 'https://x.com/backbeat', icon: XIcon },
  { name: 'YouTube', href: 'https://www.youtube.com/@backbeat', icon: YouTubeIcon },
  { name: 'Facebook', href: 'https://www.facebook.com/backbeat', icon: FacebookIcon },
] as const;
