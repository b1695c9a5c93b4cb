import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { menuItemClass, onMenuKeyDown } from './menu-keys';
import { Spinner } from './spinner';

/**
 * The state of a menu button and its popup menu (WAI-ARIA menu button): open or not, a pointer press outside
 * closes it, `close(true)` returns focus to the button. Spread `buttonProps` into the button and `menuProps` into
 * the menu.
 */
export function useMenuPopover(initiallyOpen = false) {
  const [open, setOpen] = useState(initiallyOpen);
  const wrapper = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const menuButton = () => wrapper.current?.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]');
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) menuButton()?.focus();
  };

  return {
    open,
    setOpen,
    wrapper,
    menu,
    menuButton,
    close,
    buttonProps: {
      'aria-haspopup': 'menu' as const,
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
    },
    menuProps: {
      ref: menu,
      id: menuId,
      role: 'menu',
      onKeyDown: (event: KeyboardEvent<HTMLElement>) => onMenuKeyDown(event, menu.current, close),
    },
  };
}

/** A menu's note while its entries load. */
export function MenuLoading({ children }: { children: ReactNode }) {
  return (
    <p className="flex items-center gap-2 px-3 py-2 text-meta text-muted">
      <Spinner size="sm" /> {children}
    </p>
  );
}

/** A menu's note when its entries could not be loaded. */
export function MenuError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="px-3 py-2 text-meta text-danger">
      {children}
    </p>
  );
}

/** One entry of a menu: reached with the menu's arrow keys, not with Tab. */
export function MenuItem({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" role="menuitem" tabIndex={-1} className={menuItemClass} onClick={onClick}>
      {children}
    </button>
  );
}
