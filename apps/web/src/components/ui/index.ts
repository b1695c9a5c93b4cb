export {
  Button,
  IconButton,
  buttonClasses,
  iconButtonClasses,
  type ButtonProps,
  type IconButtonProps,
} from './button';
export { cx } from './class-names';
export { EmptyState, type EmptyStateProps } from './empty-state';
export { FullScreenLoader } from './full-screen-loader';
export { Logo } from './logo';
export { PageHeader, Section } from './page-header';
export { Pager } from './pager';
export { Skeleton } from './skeleton';
export { Spinner } from './spinner';
export { TextField, type TextFieldProps } from './text-field';
export {
  FieldError,
  FieldFrame,
  fieldControlClass,
  type FieldControlProps,
  type FieldFrameProps,
} from './field-frame';
export { FormAlert } from './form-alert';
export { Prose } from './prose';
export { QueryErrorState } from './query-error-state';
export { Modal } from './modal';
export { ConfirmDialog } from './confirm-dialog';
export { CoverArt } from './cover-art';
export { focusMenuItem, onMenuKeyDown } from './menu-keys';
export { MenuError, MenuItem, MenuLoading, useMenuPopover } from './menu-popover';
export { NotFoundState } from './not-found-state';
export { LinkEmptyState, type LinkEmptyStateProps } from './link-empty-state';
export { BackLink } from './back-link';
export { CoverHeaderSkeleton } from './cover-header-skeleton';
