import { expect, test } from '@playwright/test';
import { admin, createUser, expectAccessible, storeSession } from './content-projects-helpers';
import { ANON_KEY, expectStackUp, nodeClient } from './support';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

test.describe('portfolios: form, supporting files in Storage, signed URLs by access level (spec §2)', () => {
  test.beforeAll(async () => {
    await expectStackUp();
  });

  test('visitor entry leads to registration or the plans (de)', async ({ page }) => {
    await page.goto('/de/portfolio/create');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Portfolio erstellen');
    await expect(page.getByRole('link', { name: 'Jetzt registrieren' })).toHaveAttribute('href', '/de/registration');
    await expect(page.getByRole('link', { name: 'Tarife vergleichen' })).toHaveAttribute('href', '/de/prices');
  });

  test('create a portfolio, upload a file, download it as owner and visitor; private refuses', async ({ page, browser }) => {
    const owner = await createUser('basic', 'portfolio');
    const visitor = await createUser('basic', 'pfvisitor');
    await storeSession(page, owner.session);

    await page.goto('/user/portfolios');
    await expect(page.getByTestId('portfolios-empty')).toBeVisible();
    await page.getByRole('link', { name: 'New portfolio' }).click();
    await page.getByLabel('Title').fill('Brand design for Kiezküche');
    await page.getByLabel('Description (German)').fill('Markenauftritt für ein Nachbarschaftscafé.');
    await page.getByLabel('Description (English)').fill('Brand identity for a neighbourhood café.');
    await page.getByRole('combobox', { name: 'Skills' }).fill('Branding');
    await page.getByRole('combobox', { name: 'Skills' }).press('Enter');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByLabel('Link name').fill('Case study');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('notaurl');
    await page.getByTestId('portfolio-save').click();
    await expect(page.getByText('Please enter an address starting with http:// or https://.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('https://example.com/kiezkueche');
    await page.getByTestId('portfolio-save').click();
    await expect(page).toHaveURL(/\/user\/edit-portfolio\/\d+$/);
    const portfolioId = Number(page.url().split('/').pop());
    const stored = await admin().from('portfolios').select('title, skills, links, file_access').eq('id', portfolioId).single();
    expect(stored.data).toEqual({ title: 'Brand design for Kiezküche', skills: ['Branding'], links: [{ label: 'Case study', url: 'https://example.com/kiezkueche' }], file_access: 'members' });

    // a refused type never reaches Storage
    const fileInput = page.locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await expect(page.locator('.notify-error')).toContainText('This file type is not allowed.');
    await fileInput.setInputFiles({ name: 'Präsentation.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.locator('.notify-success').filter({ hasText: 'File uploaded.' })).toBeVisible();
    await expect(page.getByTestId('portfolio-file')).toHaveCount(1);
    await expect(page.getByTestId('portfolio-file')).toContainText('Präsentation.pdf');
    await expectAccessible(page, 'edit portfolio');
    const files = await admin().from('portfolio_files').select('object_path, file_name, size_bytes').eq('portfolio_id', portfolioId);
    expect(files.data).toHaveLength(1);
    const objectPath = files.data![0]!.object_path;
    expect(objectPath).toMatch(new RegExp(`^${owner.userId}/${portfolioId}/[a-z0-9]+-Praesentation\\.pdf$`));

    // owner downloads through a signed URL
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.url()).toContain('/storage/v1/object/sign/portfolio-files/');
    expect(download.suggestedFilename()).toBe('Praesentation.pdf');

    // publish (access: signed-in members) → a signed-in visitor may download, an anonymous one not
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.getByTestId('portfolio-status')).toHaveText('Published');
    const visitorUrl = await visitor.client.storage.from('portfolio-files').createSignedUrl(objectPath, 60);
    expect(visitorUrl.error).toBeNull();
    const bytes = Buffer.from(await (await fetch(visitorUrl.data!.signedUrl)).arrayBuffer());
    expect(bytes.equals(PDF)).toBe(true);
    const anonUrl = await nodeClient(ANON_KEY).storage.from('portfolio-files').createSignedUrl(objectPath, 60);
    expect(anonUrl.data).toBeNull();

    // on the owner's profile a signed-in visitor downloads through the UI; a logged-out one sees no file
    const ownerSlug = (await admin().from('profiles').select('slug').eq('id', owner.userId).single()).data!.slug;
    const visitorContext = await browser.newContext();
    const visitorPage = await visitorContext.newPage();
    await visitorPage.goto(`/de/u/${ownerSlug}`);
    await expect(visitorPage.getByTestId('public-portfolio')).toContainText('Markenauftritt für ein Nachbarschaftscafé.');
    await expect(visitorPage.getByTestId('public-portfolio')).toContainText('Keine Dateien, die Sie herunterladen dürfen.');
    await storeSession(visitorPage, visitor.session);
    await visitorPage.goto(`/u/${ownerSlug}`);
    await expect(visitorPage.getByTestId('public-portfolio')).toContainText('Brand identity for a neighbourhood café.');
    await expect(visitorPage.getByTestId('public-portfolio').getByTestId('file-access')).toHaveText('Signed-in members');
    await expectAccessible(visitorPage, 'profile with portfolio');
    const [visitorDownload] = await Promise.all([
      visitorPage.waitForEvent('download'),
      visitorPage.getByTestId('public-portfolio').getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(visitorDownload.suggestedFilename()).toBe('Praesentation.pdf');
    await visitorContext.close();

    // only me → the visitor is refused
    await page.getByLabel('Who may download the files').selectOption('private');
    await page.getByTestId('portfolio-save').click();
    await expect(page.locator('.notify-success').filter({ hasText: 'Portfolio saved.' })).toBeVisible();
    await expect(page.getByTestId('file-access')).toHaveText('Only me');
    const refused = await visitor.client.storage.from('portfolio-files').createSignedUrl(objectPath, 60);
    expect(refused.data).toBeNull();
    expect(refused.error).not.toBeNull();

    // delete the file with confirmation: row and object are gone
    await page.getByTestId('portfolio-file').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toContainText('Delete the file “Präsentation.pdf”?');
    await page.getByTestId('confirm-action').click();
    await expect(page.getByTestId('files-empty')).toBeVisible();
    expect((await admin().from('portfolio_files').select('id').eq('portfolio_id', portfolioId)).data).toEqual([]);
    const object = await admin().storage.from('portfolio-files').download(objectPath);
    expect(object.data).toBeNull();

    // deleting the portfolio removes its stored files too
    await fileInput.setInputFiles({ name: 'Lebenslauf.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByTestId('portfolio-file')).toHaveCount(1);
    const second = (await admin().from('portfolio_files').select('object_path').eq('portfolio_id', portfolioId).single()).data!.object_path;
    await page.goto('/de/user/portfolios');
    await page.getByTestId('my-portfolio').getByRole('button', { name: 'Löschen' }).click();
    await expect(page.getByRole('dialog')).toContainText('Das Portfolio „Brand design for Kiezküche“ mit allen Dateien löschen?');
    await page.getByTestId('confirm-action').click();
    await expect(page.getByTestId('portfolios-empty')).toHaveText('Sie haben noch keine Portfolios.');
    expect((await admin().from('portfolios').select('id').eq('id', portfolioId)).data).toEqual([]);
    expect((await admin().storage.from('portfolio-files').download(second)).data).toBeNull();
  });
});
