import { hasBranding, useBranding } from '@/api/branding';
import classes from './shell-layout.module.css';

/**
 * The branding on top of a printed page (where the server has it): logo and name over a bar in the
 * accent colour. Never shown on screen. The logo comes as a data: URL, which the dashboard's policy
 * allows whatever origin the API is on.
 */
export default function PrintBranding() {
  const branding = useBranding();
  if (!hasBranding(branding)) return null;
  return (
    <div
      className={classes.printBranding}
      data-print-branding=""
      style={branding.accent ? { borderTopColor: branding.accent } : undefined}
    >
      {branding.logo && <img src={branding.logo.dataUrl} alt={branding.name === null ? 'Logo' : ''} className={classes.printLogo} />}
      {branding.name !== null && <span className={classes.printName}>{branding.name}</span>}
    </div>
  );
}
