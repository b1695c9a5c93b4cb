import { Heart } from 'lucide-react';
import { IconButton, type IconButtonProps } from '../../../components/ui';

/** The heart that likes a song or takes it out of the liked songs (both players). */
export function LikeButton({
  title,
  liked,
  onToggle,
  size,
  iconSize = 18,
}: {
  /** The song's title, for the button's name. */
  title: string;
  liked: boolean;
  onToggle: () => void;
  size?: IconButtonProps['size'];
  iconSize?: number;
}) {
  return (
    <IconButton
      label={liked ? `Remove ${title} from liked songs` : `Like ${title}`}
      aria-pressed={liked}
      size={size}
      variant={liked ? 'active' : 'ghost'}
      onClick={onToggle}
    >
      <Heart size={iconSize} strokeWidth={1.75} fill={liked ? 'currentColor' : 'none'} aria-hidden="true" />
    </IconButton>
  );
}
