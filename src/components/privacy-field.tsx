import { Group, Radio, Stack } from '@mantine/core';
import type { Ref } from 'react';
import { PRIVACY_LABELS, PRIVACY_VALUES } from '@/contract/values';
import type { Privacy } from '@/contract/values';

const PRIVACY_DESCRIPTIONS: Record<Privacy, string> = {
  0: 'Anyone with the link can open the report page.',
  1: 'Only your account can see the report.',
  2: 'The report page asks for a password.',
};

// Form values hold privacy as a string: radio values are strings.
const PRIVACY_CHOICES = PRIVACY_VALUES.map((privacy) => ({
  value: String(privacy),
  label: PRIVACY_LABELS[privacy],
  description: PRIVACY_DESCRIPTIONS[privacy],
}));

export interface PrivacyFieldProps {
  /** The `field` a react-hook-form Controller renders with; its ref goes to the checked radio. */
  field: {
    value: string;
    onChange: (value: string) => void;
    onBlur: () => void;
    name: string;
    ref: Ref<HTMLInputElement>;
  };
  error?: string;
  readOnly?: boolean;
  disabled?: boolean;
  /** `stack`: one choice a line; `row`: side by side where there is room. */
  layout: 'stack' | 'row';
}

/** The Privacy radio group (Public, Private, Password), for a react-hook-form Controller. */
export function PrivacyField({ field, error, readOnly, disabled, layout }: PrivacyFieldProps) {
  const { value, onChange, onBlur, name, ref } = field;
  const radios = PRIVACY_CHOICES.map((choice) => (
    <Radio
      key={choice.value}
      value={choice.value}
      label={choice.label}
      description={choice.description}
      ref={choice.value === value ? ref : undefined}
      onBlur={onBlur}
      disabled={disabled}
    />
  ));
  return (
    <Radio.Group
      label="Privacy"
      value={value}
      onChange={onChange}
      name={name}
      error={error}
      readOnly={readOnly}
    >
      {layout === 'stack' ? (
        <Stack gap="xs" mt={6}>
          {radios}
        </Stack>
      ) : (
        <Group gap="xs" style={{ columnGap: 'var(--mantine-spacing-xl)' }} align="flex-start" mt={6}>
          {radios}
        </Group>
      )}
    </Radio.Group>
  );
}
