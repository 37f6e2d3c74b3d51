import { conditionLabel, type BadgeColor } from '@campus-books/common/display';
import { useState, type ReactNode } from 'react';
import { ListingCard, PHONE_CARD_SIZES } from '../../components/listing-card';
import { MajorSelect } from '../../components/major-select';
import { PageTitle } from '../../components/page-title';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { ErrorBlock } from '../../components/ui/error-block';
import {
  CheckboxField,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/ui/form-field';
import { ConfirmModal } from '../../components/ui/modal';
import { Loading } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { TipBox } from '../../components/ui/tip-box';
import { PREVIEW_LISTINGS } from './preview-listings';

const BADGE_COLORS: BadgeColor[] = ['blue', 'green', 'yellow', 'orange', 'red', 'grey'];

function Showcase({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="border-b border-slate-200 pb-2 text-xl font-bold text-slate-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** The living style guide: every piece of the UI kit, as the pages use it. */
export default function ComponentPreviewPage() {
  const [major, setMajor] = useState('');
  const [isModalOpen, setIsModalOpen] = useState(false);
  const [confirmed, setConfirmed] = useState(false);

  return (
    <div>
      <PageTitle title="Component preview" />
      <h1 className="text-3xl font-bold text-slate-900">Component preview</h1>
      <p className="mt-2 text-slate-700">The building blocks of every page, in one place.</p>

      <Showcase title="Buttons">
        <div className="flex flex-wrap items-center gap-3">
          <Button>Primary</Button>
          <Button variant="secondary">Secondary</Button>
          <Button variant="danger">Danger</Button>
          <Button variant="ghost">Ghost</Button>
          <Button isLoading loadingText="Loading...">
            Busy
          </Button>
          <Button disabled>Disabled</Button>
          <ButtonLink to={paths.search}>Link as a button</ButtonLink>
        </div>
      </Showcase>

      <Showcase title="Inputs">
        <div className="grid max-w-2xl gap-4 sm:grid-cols-2">
          <TextField label="Text field" placeholder="Type here" />
          <TextField label="With a hint" hint="A short explanation of the field." />
          <TextField label="With an error" error="This field is required" defaultValue="" />
          <SelectField label="Select field" defaultValue="good">
            <option value="mint">{conditionLabel('mint')}</option>
            <option value="good">{conditionLabel('good')}</option>
          </SelectField>
          <TextAreaField label="Text area" className="sm:col-span-2" />
          <CheckboxField label="Checkbox field" />
          <MajorSelect label="Major (searchable)" value={major} onChange={setMajor} />
        </div>
      </Showcase>

      <Showcase title="Tip boxes">
        <div className="grid max-w-2xl gap-4">
          <TipBox title="Tip">The first image you upload becomes the cover of your listing.</TipBox>
          <TipBox title="Your privacy" tone="green">
            We use your data only to verify that you are a student.
          </TipBox>
        </div>
      </Showcase>

      <Showcase title="Badges">
        <div className="flex flex-wrap gap-2">
          {BADGE_COLORS.map((color) => (
            <Badge key={color} color={color}>
              {color}
            </Badge>
          ))}
        </div>
      </Showcase>

      <Showcase title="Listing cards">
        <ul aria-label="Listing cards" className="grid max-w-3xl grid-cols-2 gap-4 lg:grid-cols-3">
          {PREVIEW_LISTINGS.map((listing) => (
            <li key={listing._id} className="flex">
              <ListingCard
                listing={listing}
                sizes={`(min-width: 1024px) 240px, ${PHONE_CARD_SIZES}`}
              />
            </li>
          ))}
        </ul>
      </Showcase>

      <Showcase title="Banners and errors">
        <div className="grid max-w-2xl gap-3">
          <Banner tone="green" message="Listing marked as sold" />
          <Banner tone="blue" message="Profile updated" />
          <Banner tone="amber" message="Listing deleted" />
          <ErrorBlock message="Wrong e-mail or password" />
          <Loading />
        </div>
      </Showcase>

      <Showcase title="Modal">
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="danger" onClick={() => setIsModalOpen(true)}>
            Open confirmation
          </Button>
          {confirmed ? <p role="status">Confirmed.</p> : null}
        </div>
        <ConfirmModal
          open={isModalOpen}
          title="Delete this listing?"
          confirmLabel="Delete"
          onConfirm={() => {
            setConfirmed(true);
            setIsModalOpen(false);
          }}
          onCancel={() => setIsModalOpen(false)}
        >
          This cannot be undone.
        </ConfirmModal>
      </Showcase>
    </div>
  );
}
