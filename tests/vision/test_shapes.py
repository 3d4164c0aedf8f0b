"""The picture generator: seeded, masks exactly the drawn target, labels that match the drawing."""

import numpy as np

from explorer.vision.shapes import (
    CLASS_NAMES,
    DISTRACTOR_COLOURS,
    HELD_OUT_FIRST,
    IMAGE_SIZE,
    SHAPES,
    TARGET_COLOURS,
    generate,
    held_out,
    training_seeds,
)

SEEDS = range(300)


def components(mask):
    """Number of 4-connected components of a boolean mask (a plain flood fill)."""
    seen = np.zeros_like(mask)
    count = 0
    for start in zip(*np.nonzero(mask)):
        if seen[start]:
            continue
        count += 1
        stack = [start]
        while stack:
            r, c = stack.pop()
            if not (0 <= r < mask.shape[0] and 0 <= c < mask.shape[1]) or seen[r, c] or not mask[r, c]:
                continue
            seen[r, c] = True
            stack += [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
    return count


def test_same_seed_same_picture_and_different_seeds_differ():
    a, b, c = generate(42), generate(42), generate(43)
    np.testing.assert_array_equal(a.image, b.image)
    np.testing.assert_array_equal(a.mask, b.mask)
    assert a.label == b.label
    assert not np.array_equal(a.image, c.image)
    assert a.image.shape == (IMAGE_SIZE, IMAGE_SIZE, 3) and a.image.dtype == np.float32
    assert 0.0 <= a.image.min() and a.image.max() <= 1.0


def test_the_mask_is_exactly_the_target_coloured_pixels():
    for seed in SEEDS:
        check_mask(seed)


def test_the_label_names_the_drawn_shape_and_colour():
    for seed in SEEDS:
        check_label(seed)


def check_mask(seed):
    clean = generate(seed, noise=0.0)
    colour = np.array(TARGET_COLOURS[clean.colour], dtype=np.float32)
    is_target_colour = np.all(np.abs(clean.image - colour) < 1e-6, axis=2)
    np.testing.assert_array_equal(is_target_colour, clean.mask)
    # No pixel outside the mask comes near either target colour: the label is unambiguous.
    for other in TARGET_COLOURS.values():
        near = np.all(np.abs(clean.image - np.array(other)) < 0.15, axis=2)
        assert not (near & ~clean.mask).any()
    assert components(clean.mask) == 1
    # The noisy picture draws the same object: same mask, colour within the noise.
    noisy = generate(seed)
    np.testing.assert_array_equal(noisy.mask, clean.mask)
    assert np.abs(noisy.image[noisy.mask].mean(axis=0) - colour).max() < 0.05


def check_label(seed):
    p = generate(seed, noise=0.0)
    assert CLASS_NAMES[p.label] == f"{p.colour} {p.shape}"
    rows, cols = np.nonzero(p.mask)
    height, width = np.ptp(rows) + 1, np.ptp(cols) + 1
    area = p.mask.sum()
    cy, cx = p.centre
    # Checked from the pixels alone, independently of how the generator draws.
    if p.shape == "circle":
        d2 = (rows + 0.5 - cy) ** 2 + (cols + 0.5 - cx) ** 2
        assert d2.max() <= p.radius**2 + 1e-9
        assert abs(area - np.pi * p.radius**2) < 2 * np.pi * p.radius
    elif p.shape == "square":
        assert abs(height - width) <= 1 and area == height * width  # a full axis-aligned square
    elif p.shape == "triangle":
        widths = p.mask.sum(axis=1)[p.mask.any(axis=1)]
        assert widths[-1] > widths[0] and np.all(np.diff(widths) >= 0)  # widening downwards
    elif p.shape == "cross":
        r, c = int(cy), int(cx)
        assert p.mask[r, cols.min() : cols.max() + 1].all() and p.mask[rows.min() : rows.max() + 1, c].all()
        assert not p.mask[rows.min(), cols.min()] and not p.mask[rows.max(), cols.max()]  # empty corners
    assert 20 <= area <= 180


def test_distractors_are_drawn_in_distractor_colours():
    found = set()
    for seed in range(100):
        clean = generate(seed, noise=0.0)
        for name, colour in DISTRACTOR_COLOURS.items():
            if np.all(np.abs(clean.image - np.array(colour, dtype=np.float32)) < 1e-6, axis=2).sum() >= 15:
                found.add(name)
    assert found == set(DISTRACTOR_COLOURS)


def test_classes_are_balanced():
    labels = held_out(2000).labels
    counts = np.bincount(labels, minlength=len(CLASS_NAMES))
    assert counts.min() > 0.09 * 2000 and counts.max() < 0.16 * 2000
    assert len(CLASS_NAMES) == len(SHAPES) * len(TARGET_COLOURS)


def test_held_out_and_training_seeds_never_meet():
    seeds = training_seeds(np.random.default_rng(0), 100_000)
    assert seeds.max() < HELD_OUT_FIRST and seeds.min() >= 0
    batch = held_out(10, start=5)
    assert list(batch.seeds) == [HELD_OUT_FIRST + 5 + k for k in range(10)]
    np.testing.assert_array_equal(batch.images[0], generate(HELD_OUT_FIRST + 5).image.transpose(2, 0, 1))
    assert batch.masks.shape == (10, IMAGE_SIZE, IMAGE_SIZE) and batch.masks.dtype == bool
