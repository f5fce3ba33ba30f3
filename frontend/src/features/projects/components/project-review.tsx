import { Badge, Group, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { type ProjectFormValues, STAGE_LABEL } from '../api/project-schema';
import { CATEGORY_LABEL, PRIVATE_CATEGORY_LABEL } from '@/lib/categories';

/** Read-only summary of the project values (last wizard step). */
export function ProjectReview({ values }: { values: ProjectFormValues }) {
  const category = values.isPrivate
    ? values.privateCategory && PRIVATE_CATEGORY_LABEL[values.privateCategory]
    : values.category && CATEGORY_LABEL[values.category];
  return (
    <Stack gap="xs" data-testid="project-review">
      <Text fw={700} size="lg">
        {values.title}
      </Text>
      {values.summary && <Text>{values.summary}</Text>}
      <Group gap="xs">
        {category && (
          <Badge variant="light">
            <FormattedMessage id={category} />
          </Badge>
        )}
        <Badge variant="outline">
          <FormattedMessage id={STAGE_LABEL[values.stage]} />
        </Badge>
        {values.city && <Badge variant="outline">{values.city}</Badge>}
      </Group>
      {values.rolesSought.length > 0 && (
        <Text size="sm">
          <FormattedMessage id="projects.detail.roles" />: {values.rolesSought.join(', ')}
        </Text>
      )}
      {values.description && <RichText text={values.description} testId="project-description" />}
    </Stack>
  );
}
