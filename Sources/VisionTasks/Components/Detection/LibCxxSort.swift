/// `std::sort` as LLVM's libc++ (17 and later) carries it out for a comparator that is not a
/// plain `<` on numbers: the same comparisons and moves, so elements that compare equal end in
/// the same order as there (libcxx/include/__algorithm/sort.h, partial_sort.h, sift_down.h,
/// pop_heap.h, push_heap.h).
///
/// MediaPipe's non-max suppression orders detections with `std::sort` on their scores
/// (mediapipe/calculators/util/non_max_suppression_calculator.cc, `SortBySecond`), and the
/// MediaPipe 1.2.3 library links libc++ statically. `std::sort` is not stable: detections with
/// equal scores, frequent when scores come from 8-bit tensors, leave in an order that depends on
/// the whole list, and that order decides which of two overlapping boxes survives. Sorting the
/// same way gives MediaPipe's detections in MediaPipe's order.
///
/// The algorithm is libc++'s pattern-defeating introsort: ranges of at most five elements by
/// fixed insertion networks, below 24 by insertion sort, else a median-of-three pivot (Tukey's
/// ninther above 128 elements), a partition that puts equal elements right of the pivot (left
/// when the pivot equals the element before the range), an early exit when a partition moved
/// nothing and insertion sort finishes within 8 moves, and heap sort once the depth limit of
/// 2·⌊log₂ n⌋ is used up.
enum LibCxxSort {
    /// Sorts `elements` so that `less` holds for no later element against an earlier one,
    /// leaving equal elements where libc++'s `std::sort` leaves them.
    static func sort<Element>(_ elements: inout [Element], by less: (Element, Element) -> Bool) {
        let count = elements.count
        guard count > 1 else { return }
        let depth = 2 * (Int.bitWidth - 1 - count.leadingZeroBitCount)
        sort(&elements, depthLimit: depth, by: less)
    }

    /// The same with an explicit depth limit (a limit of 0 sorts by the heap sort fallback).
    static func sort<Element>(_ elements: inout [Element], depthLimit: Int, by less: (Element, Element) -> Bool) {
        guard elements.count > 1 else { return }
        withoutActuallyEscaping(less) { less in
            elements.withUnsafeMutableBufferPointer { a in
                var sorter = Sorter(a: a, less: less)
                sorter.introsort(0, a.count, depth: depthLimit, leftmost: true)
            }
        }
    }

    /// One sort: the buffer and the comparator, with libc++'s steps as methods on positions.
    private struct Sorter<Element> {
        let a: UnsafeMutableBufferPointer<Element>
        let less: (Element, Element) -> Bool

        /// `__sort3`: orders three positions with 2–3 comparisons.
        func sort3(_ x: Int, _ y: Int, _ z: Int) {
            if !less(a[y], a[x]) {
                if !less(a[z], a[y]) { return }
                a.swapAt(y, z)
                if less(a[y], a[x]) { a.swapAt(x, y) }
                return
            }
            if less(a[z], a[y]) {
                a.swapAt(x, z)
                return
            }
            a.swapAt(x, y)
            if less(a[z], a[y]) { a.swapAt(y, z) }
        }

        /// `__sort4` and `__sort5`: the first three sorted, then each later one moved down.
        func sortNetwork(_ first: Int, count: Int) {
            sort3(first, first + 1, first + 2)
            for last in (first + 3)..<(first + count) {
                var position = last
                while position > first, less(a[position], a[position - 1]) {
                    a.swapAt(position, position - 1)
                    position -= 1
                }
            }
        }

        /// Ranges of up to five elements (the `switch` at the top of `__introsort`).
        func sortSmall(_ first: Int, count: Int) {
            switch count {
            case 2: if less(a[first + 1], a[first]) { a.swapAt(first, first + 1) }
            case 3: sort3(first, first + 1, first + 2)
            case 4, 5: sortNetwork(first, count: count)
            default: break
            }
        }

        /// `__insertion_sort` (guarded) and `__insertion_sort_unguarded`, which relies on the
        /// element before `first` being no greater than any in the range.
        func insertionSort(_ first: Int, _ last: Int, guarded: Bool) {
            guard last - first > 1 else { return }
            for i in (first + 1)..<last where less(a[i], a[i - 1]) {
                let moving = a[i]
                var hole = i
                repeat {
                    a[hole] = a[hole - 1]
                    hole -= 1
                } while !(guarded && hole == first) && less(moving, a[hole - 1])
                a[hole] = moving
            }
        }

        /// `__insertion_sort_incomplete`: sorts the range unless more than 8 elements have to
        /// move; returns whether it is sorted.
        func insertionSortIncomplete(_ first: Int, _ last: Int) -> Bool {
            let count = last - first
            if count <= 5 {
                sortSmall(first, count: count)
                return true
            }
            sort3(first, first + 1, first + 2)
            var moves = 0
            for i in (first + 3)..<last where less(a[i], a[i - 1]) {
                let moving = a[i]
                var hole = i
                repeat {
                    a[hole] = a[hole - 1]
                    hole -= 1
                } while hole != first && less(moving, a[hole - 1])
                a[hole] = moving
                moves += 1
                if moves == 8 { return i + 1 == last }
            }
            return true
        }

        /// `__partition_with_equals_on_right`: the pivot at `first` moves to its place, smaller
        /// elements left, the others right. Returns the pivot's position and whether nothing
        /// had to be swapped.
        func partitionEqualsRight(_ start: Int, _ end: Int) -> (pivot: Int, alreadyPartitioned: Bool) {
            let pivot = a[start]
            var first = start + 1
            while less(a[first], pivot) { first += 1 }
            var last = end
            if first - 1 == start {
                while first < last {
                    last -= 1
                    if less(a[last], pivot) { break }
                }
            } else {
                repeat { last -= 1 } while !less(a[last], pivot)
            }
            let alreadyPartitioned = first >= last
            while first < last {
                a.swapAt(first, last)
                repeat { first += 1 } while less(a[first], pivot)
                repeat { last -= 1 } while !less(a[last], pivot)
            }
            let position = first - 1
            if position != start { a[start] = a[position] }
            a[position] = pivot
            return (position, alreadyPartitioned)
        }

        /// `__partition_with_equals_on_left`: elements equal to the pivot stay left of it.
        /// Returns the first position after the pivot.
        func partitionEqualsLeft(_ start: Int, _ end: Int) -> Int {
            let pivot = a[start]
            var first = start + 1
            var last = end
            if less(pivot, a[end - 1]) {
                while !less(pivot, a[first]) { first += 1 }
            } else {
                while first < last, !less(pivot, a[first]) { first += 1 }
            }
            if first < last {
                repeat { last -= 1 } while less(pivot, a[last])
            }
            while first < last {
                a.swapAt(first, last)
                repeat { first += 1 } while !less(pivot, a[first])
                repeat { last -= 1 } while less(pivot, a[last])
            }
            let position = first - 1
            if position != start { a[start] = a[position] }
            a[position] = pivot
            return first
        }

        /// `__introsort`, the right part by iteration and the left by recursion.
        mutating func introsort(_ start: Int, _ end: Int, depth: Int, leftmost: Bool) {
            var first = start
            var end = end
            var depth = depth
            var leftmost = leftmost
            while true {
                let count = end - first
                if count <= 5 {
                    sortSmall(first, count: count)
                    return
                }
                if count < 24 {
                    insertionSort(first, end, guarded: leftmost)
                    return
                }
                if depth == 0 {
                    heapSort(first, end)
                    return
                }
                depth -= 1
                let half = count / 2
                if count > 128 {
                    sort3(first, first + half, end - 1)
                    sort3(first + 1, first + half - 1, end - 2)
                    sort3(first + 2, first + half + 1, end - 3)
                    sort3(first + half - 1, first + half, first + half + 1)
                    a.swapAt(first, first + half)
                } else {
                    sort3(first + half, first, end - 1)
                }
                if !leftmost, !less(a[first - 1], a[first]) {
                    first = partitionEqualsLeft(first, end)
                    continue
                }
                let (pivot, alreadyPartitioned) = partitionEqualsRight(first, end)
                if alreadyPartitioned {
                    let leftSorted = insertionSortIncomplete(first, pivot)
                    if insertionSortIncomplete(pivot + 1, end) {
                        if leftSorted { return }
                        end = pivot
                        continue
                    }
                    if leftSorted {
                        first = pivot + 1
                        continue
                    }
                }
                introsort(first, pivot, depth: depth, leftmost: leftmost)
                leftmost = false
                first = pivot + 1
            }
        }

        // MARK: Heap sort (`__partial_sort` over the whole range)

        /// `__sift_down` on the heap of `count` elements at `base`, from position `start`.
        func siftDown(_ base: Int, count: Int, start: Int) {
            var child = start - base
            if count < 2 || (count - 2) / 2 < child { return }
            child = 2 * child + 1
            var childPosition = base + child
            if child + 1 < count, less(a[childPosition], a[childPosition + 1]) {
                childPosition += 1
                child += 1
            }
            if less(a[childPosition], a[start]) { return }
            let top = a[start]
            var hole = start
            repeat {
                a[hole] = a[childPosition]
                hole = childPosition
                if (count - 2) / 2 < child { break }
                child = 2 * child + 1
                childPosition = base + child
                if child + 1 < count, less(a[childPosition], a[childPosition + 1]) {
                    childPosition += 1
                    child += 1
                }
            } while !less(a[childPosition], top)
            a[hole] = top
        }

        /// `__floyd_sift_down`: moves the larger child up from the root to a leaf; returns the
        /// leaf's position.
        func floydSiftDown(_ base: Int, count: Int) -> Int {
            var hole = base
            var childPosition = base
            var child = 0
            while true {
                childPosition += child + 1
                child = 2 * child + 1
                if child + 1 < count, less(a[childPosition], a[childPosition + 1]) {
                    childPosition += 1
                    child += 1
                }
                a[hole] = a[childPosition]
                hole = childPosition
                if child > (count - 2) / 2 { return hole }
            }
        }

        /// `__sift_up` of the element just before `end` in the heap at `base`.
        func siftUp(_ base: Int, end: Int, count: Int) {
            guard count > 1 else { return }
            var length = (count - 2) / 2
            var parent = base + length
            var last = end - 1
            guard less(a[parent], a[last]) else { return }
            let moving = a[last]
            repeat {
                a[last] = a[parent]
                last = parent
                if length == 0 { break }
                length = (length - 1) / 2
                parent = base + length
            } while less(a[parent], moving)
            a[last] = moving
        }

        /// `__make_heap` then `__sort_heap` (each `__pop_heap` with Floyd's sift-down).
        func heapSort(_ first: Int, _ end: Int) {
            let count = end - first
            if count > 1 {
                var start = (count - 2) / 2
                while start >= 0 {
                    siftDown(first, count: count, start: first + start)
                    start -= 1
                }
            }
            var last = end
            var remaining = count
            while remaining > 1 {
                let top = a[first]
                var hole = floydSiftDown(first, count: remaining)
                last -= 1
                if hole == last {
                    a[hole] = top
                } else {
                    a[hole] = a[last]
                    hole += 1
                    a[last] = top
                    siftUp(first, end: hole, count: hole - first)
                }
                remaining -= 1
            }
        }
    }
}
